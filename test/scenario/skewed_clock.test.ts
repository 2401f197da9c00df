/**
 * Goal: prove that a broker's clock skew cannot change a verdict now that the oracle is built
 * from kernel-stamped observations (issue 14), and that the invariants checked as observations
 * arrive reach a real run's report. Method: run `scenarios/skewed-txn-leader.yaml` with the
 * partition leader's clock skewed +2000 ms and -2000 ms and require every seed to pass;
 * run `scenarios/known-bugs/skewed-txn-leader-zombie.yaml` (bug switch
 * partition.skip.producer.epoch.check, a producer paused past transaction.timeout.ms) under both
 * skews and require zombie-write; then break the model on purpose (a test-only mutation: the
 * high watermark is no longer capped by the log end offset) and require an `invariant` anomaly
 * carrying the seed, the event index and the time, with the run failing.
 */
import type { OffsetsReporter } from '../../sim/actors/broker/offsets_reporter';
import type { ObservationSink } from '../../sim/actors/protocol';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartitionLog } from '../../sim/actors';
import { runScenario } from '../../sim/runner/run';
import { parseScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';

const SAFE = 'scenarios/skewed-txn-leader.yaml';
const ZOMBIE = 'scenarios/known-bugs/skewed-txn-leader-zombie.yaml';

/** The scenario in `file` with its clock skew set to `skewMs`. */
function withSkew(file: string, skewMs: number) {
  const text = readFileSync(file, 'utf8').replace(/skew\.ms: 2000/u, `skew.ms: ${skewMs}`);
  expect(text).toContain(`skew.ms: ${skewMs}`);
  return parseScenario(text, file);
}

describe('clock skew of the transaction partition leader', () => {
  for (const skewMs of [2000, -2000]) {
    it(`passes the safe file with skew ${skewMs} ms`, () => {
      const scenario = withSkew(SAFE, skewMs);
      for (const seed of sweepSeeds('1..3')) {
        const { report } = runScenario(scenario, { seed, messageLog: false });
        expect(report.check.anomalyTypes, `seed ${seed}`).toEqual([]);
        expect(report.outcome, `seed ${seed}`).toBe('pass');
      }
    });

    it(`still reports zombie-write with the epoch-check bug and skew ${skewMs} ms`, () => {
      const scenario = withSkew(ZOMBIE, skewMs);
      for (const seed of sweepSeeds('1..2')) {
        const { report } = runScenario(scenario, { seed, messageLog: false });
        expect(report.check.anomalyTypes, `seed ${seed}`).toContain('zombie-write');
        expect(report.check.anomalyTypes, `seed ${seed}`).not.toContain('invariant');
      }
    });
  }
});

describe('invariants in a real run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reports a high watermark above the log end offset as an invariant anomaly', () => {
    const original = PartitionLog.prototype.setHighWatermark;
    let mutated = false;
    // Test-only mutation, applied once: the first high watermark replication sets is one past
    // the log end offset, no longer capped by it (Kafka's UnifiedLog.updateHighWatermark caps
    // it); the change is observed. Once is enough for the invariant and keeps the run short.
    vi.spyOn(PartitionLog.prototype, 'setHighWatermark').mockImplementation(function (
      this: PartitionLog,
      highWatermark: number,
      nowUs: number,
    ) {
      original.call(this, highWatermark, nowUs);
      if (mutated || this.logEndOffset === 0) return;
      mutated = true;
      const kept = this.highWatermark;
      this.highWatermark = this.logEndOffset + 1;
      // The replica observes its offsets through its private reporter (offsets_reporter.ts).
      const replica = this as unknown as {
        offsetsReporter: OffsetsReporter;
        broker: string;
        observe: ObservationSink;
      };
      replica.offsetsReporter.report(replica.broker, this, replica.observe);
      this.highWatermark = kept;
    });
    const { report, oracle } = runScenario(withSkew(SAFE, 2000), { seed: '1', messageLog: false });
    const found = report.check.anomalies.filter(
      (anomaly) => anomaly.kind === 'invariant' && anomaly.invariant === 'offsets-ordered',
    );
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]).toMatchObject({ seed: '1' });
    expect(found[0]?.eventIndex).toBeGreaterThan(0);
    expect(found[0]?.eventIndex).toBeLessThanOrEqual(report.eventsRun);
    const recorded = oracle.invariantViolations.find((v) => v.invariant === 'offsets-ordered');
    expect(recorded?.eventIndex).toBe(found[0]?.eventIndex);
    expect(report.outcome).toBe('fail');
  });
});
