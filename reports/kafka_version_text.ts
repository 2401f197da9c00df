/**
 * The report's Kafka line, one text for every view: the release modelled and each switch set
 * otherwise than that release had it.
 */
import type { RunReport } from '../sim/runner';

/**
 * `4.1` alone, or `3.7; differs: bugs.KAFKA-16352 = true (3.7 has false)`.
 * @example kafkaVersionText({ version: '4.5', differences: [] }) // '4.5'
 */
export function kafkaVersionText(kafka: RunReport['kafka']): string {
  if (kafka.differences.length === 0) return kafka.version;
  const changes = kafka.differences.map(
    (difference) =>
      `${difference.key} = ${String(difference.value)} ` +
      `(${kafka.version} has ${String(difference.versionValue)})`,
  );
  return `${kafka.version}; differs: ${changes.join(', ')}`;
}
