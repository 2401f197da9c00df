/**
 * Goal: prove `hanging-transaction` both ways on real runs, before the lead's BUG-01 scenario
 * exists, and check the oracle's coordinator view it reads. Method: derive an inline scenario from
 * `scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml` without instance B: A pauses past its
 * transaction.timeout.ms, the coordinator aborts its transaction (CompleteAbort, epoch bumped), and
 * with the partition's producer-epoch check switched off A's late records open transactions that no
 * coordinator will close (KIP-664; KIP-890), pinning the last stable offset until the end of the
 * run. With `transaction.max.timeout.ms: 12000` the pin outlasts the maximum and the checker must
 * report it, located at the open transaction; with Kafka's default (900000) the same pin is shorter
 * than the maximum and must not be reported. Seeds: `sweepSeeds('1..8')`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner/run';
import { parseScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';
import { initGranted } from './history_queries';

const BUG_FILE = 'scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml';

/** The bug scenario without instance B, with `maxTimeout` as transaction.max.timeout.ms. */
function probeText(maxTimeoutMs: number | null): string {
  const text = readFileSync(BUG_FILE, 'utf8');
  const withoutB =
    text.slice(0, text.indexOf('  - name: B')) + text.slice(text.indexOf('  - name: reader'));
  const broker =
    maxTimeoutMs === null
      ? withoutB
      : withoutB.replace('broker:\n', `broker:\n  transaction.max.timeout.ms: ${maxTimeoutMs}\n`);
  return broker.replace(/^expect:\n(?: {2}.*\n)*/m, 'expect:\n  allowed: [hanging-transaction]\n');
}

describe('hanging-transaction on real runs (A fenced by a timeout, epoch check off)', () => {
  const seeds = sweepSeeds('1..8');

  it('reports each open transaction left behind, pinned past transaction.max.timeout.ms', () => {
    const scenario = parseScenario(probeText(12_000), 'inline/hanging-probe.yaml');
    const problems: string[] = [];
    let detected = 0;
    for (const seed of seeds) {
      const run = runScenario(scenario, { seed });
      const a = initGranted(run.history, 'A');
      const { anomalyTypes, anomalies } = run.report.check;
      const others = anomalyTypes.filter((kind) => kind !== 'hanging-transaction');
      if (others.length > 0) problems.push(`seed ${seed}: unexpected ${others.join(',')}`);
      const [view] = run.oracle.coordinatorTransactions ?? [];
      if (view?.transactionalId !== 'orders-tx' || view.state !== 'CompleteAbort') {
        problems.push(`seed ${seed}: coordinator view ${JSON.stringify(view)}`);
      }
      if (run.oracle.endUs !== run.report.simulatedUs) problems.push(`seed ${seed}: endUs`);
      const open = run.oracle.partitions.flatMap((partition) =>
        partition.openTransactions.map((transaction) => ({ partition, transaction })),
      );
      const hanging = anomalies.filter((anomaly) => anomaly.kind === 'hanging-transaction');
      if (hanging.length > 0) detected += 1;
      if (hanging.length !== open.length) {
        problems.push(`seed ${seed}: ${hanging.length} reported, ${open.length} open`);
      }
      for (const anomaly of hanging) {
        const match = open.find(
          ({ partition, transaction }) =>
            partition.partition === anomaly.partition &&
            transaction.firstOffset === anomaly.offset &&
            transaction.producerId === anomaly.producerId &&
            transaction.producerEpoch === anomaly.producerEpoch,
        );
        if (match === undefined) problems.push(`seed ${seed}: unlocated ${anomaly.message}`);
        if (anomaly.producerId !== a?.producerId) problems.push(`seed ${seed}: producerId`);
        if (anomaly.coordinatorState !== 'CompleteAbort') problems.push(`seed ${seed}: state`);
        if ((anomaly.durationUs ?? 0) <= 12_000_000) problems.push(`seed ${seed}: duration`);
      }
    }
    expect(problems).toEqual([]);
    expect(detected * 2).toBeGreaterThanOrEqual(seeds.length);
  });

  it('stays quiet while the pin is shorter than the default transaction.max.timeout.ms', () => {
    const scenario = parseScenario(probeText(null), 'inline/hanging-probe-default.yaml');
    for (const seed of seeds) {
      const run = runScenario(scenario, { seed });
      expect(run.oracle.transactionMaxTimeoutMs).toBe(900_000);
      expect(run.report.check.anomalyTypes, `seed ${seed}`).toEqual([]);
    }
  });
});
