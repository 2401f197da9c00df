/**
 * Goal: `log.flush.interval.messages=1` is the one broker setting a power loss cannot undo
 * (Kafka documentation, Operations: Application vs. OS Flush Management): each append is
 * fsynced before it is answered, so the Last Replica Standing loss of
 * `last-replica-standing-no-elr.yaml` (b1, alone in the ISR, loses its unflushed tail and is
 * re-elected) loses nothing, and the guarantee model no longer grants the power-loss permission.
 * Method: the bundled scenario at seed 1 with the key at 1 (its loss with Kafka's default is
 * pinned by test/scenario/replication.sweep.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadScenario, type ScenarioConfig } from '../../scenarios';
import { runScenario } from '../../sim/runner/run';
import { kafkaPermissions } from '../../sim/runner/kafka_guarantee';

const FILE = 'scenarios/last-replica-standing-no-elr.yaml';

function withFlushInterval(interval: number | null): ScenarioConfig {
  const scenario = loadScenario(FILE);
  return { ...scenario, broker: { ...scenario.broker, logFlushIntervalMessages: interval } };
}

const POWER_LOSS = { kind: 'crash', description: 'power loss of b1 for 4000 ms' };

describe(`${FILE} and log.flush.interval.messages`, () => {
  it('loses nothing when every append is flushed', () => {
    const { report, oracle } = runScenario(withFlushInterval(1), { seed: '1' });
    expect(report.check.anomalies).toEqual([]);
    // b1 lost power and recovered its whole log: no power-loss truncation at all.
    expect(oracle.truncations?.filter((cut) => cut.reason === 'power-loss')).toEqual([]);
    expect(report.faults.map((fault) => fault.description)).toContain(
      'power loss of b1 for 4000 ms',
    );
  });

  it('grants the power-loss permission only when flushing is left to the OS or batched', () => {
    const ids = (interval: number | null) =>
      kafkaPermissions({ scenario: withFlushInterval(interval), faults: [POWER_LOSS] }).map(
        (permission) => permission.id,
      );
    expect(ids(null)).toContain('power-loss');
    expect(ids(1000)).toContain('power-loss');
    expect(ids(1)).not.toContain('power-loss');
  });
});
