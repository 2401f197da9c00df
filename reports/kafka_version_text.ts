/**
 * The report's Kafka line, one text for every view: the release modelled and each switch set
 * otherwise than that release had it, with whether the run consulted that switch at all.
 */
import type { RunReport } from '../sim/runner';

/**
 * `4.1` alone, or `3.7; differs: bugs.KAFKA-16352 = true (3.7 has false; reached)`. A bug switch
 * the run never consulted says `never reached`: this run's events are those of the release
 * itself, so a clean run with it says nothing about the bug.
 * @example kafkaVersionText({ version: '4.5', differences: [], switchesReached: [] }) // '4.5'
 */
export function kafkaVersionText(kafka: RunReport['kafka']): string {
  if (kafka.differences.length === 0) return kafka.version;
  const changes = kafka.differences.map((difference) => {
    const was = `${kafka.version} has ${String(difference.versionValue)}`;
    const id = difference.key.startsWith('bugs.') ? difference.key.slice('bugs.'.length) : null;
    const reach =
      id === null
        ? ''
        : (kafka.switchesReached ?? []).includes(id)
          ? '; reached'
          : '; never reached';
    return `${difference.key} = ${String(difference.value)} (${was}${reach})`;
  });
  return `${kafka.version}; differs: ${changes.join(', ')}`;
}
