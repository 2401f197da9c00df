/**
 * Goal: `g1c` end to end, under the known-bad configuration that produces it in the model: a
 * read-process-write pipeline reading its input with `isolation.level: read_uncommitted` (outside
 * KIP-447's recipe), while the input's transactional producer also writes the pipeline's output
 * topic. The pipeline processes records of a transaction still open and commits its outputs
 * before that transaction's later records land on the same output partitions, and the
 * transaction then commits: a committed transaction read another whose later write follows its
 * own in a log (G1c), which the guarantee model permits as `pipeline-recipe`. The same file with
 * read_committed is clean: a read only sees a transaction after all its records were written.
 * In the sweeps tier: the read_uncommitted run takes about ten seconds (many anomalies to judge).
 */
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../sim/runner';
import { parseScenario } from '../../scenarios';

function scenario(isolationLevel: string) {
  return parseScenario(
    `
name: g1c-pipeline
cluster:
  brokers: 3
  topics:
    - name: in
      partitions: 1
    - name: out
      partitions: 1
clients:
  - name: source
    role: producer
    config: { transactional.id: source }
    workload:
      transactions: 20
      records.per.transaction: 10
      send.interval.ms: 10
      transaction.interval.ms: 1
      topics: [in, out]
  - name: P1
    role: pipeline
    config:
      transactional.id: etl-1
      group.id: etl
      isolation.level: ${isolationLevel}
      enable.auto.commit: false
      auto.offset.reset: earliest
    workload:
      topics: [in]
      output.topic: out
run:
  duration.ms: 4000
  heal.ms: 10000
`,
    'g1c-pipeline.yaml',
  );
}

describe('g1c with a pipeline', () => {
  it('is reported, and permitted as pipeline-recipe, for a read_uncommitted pipeline', () => {
    const { report } = runScenario(scenario('read_uncommitted'), { seed: '1', messageLog: false });
    const found = report.check.anomalies.filter((anomaly) => anomaly.kind === 'g1c');
    expect(found.length).toBeGreaterThan(0);
    expect(found[0]?.client).toBe('P1');
    const verdict = report.guarantee.verdicts.find((kind) => kind.kind === 'g1c');
    expect(verdict).toMatchObject({ verdict: 'permitted', permission: { id: 'pipeline-recipe' } });
  });

  it('is not reported for a read_committed pipeline', () => {
    const { report } = runScenario(scenario('read_committed'), { seed: '1', messageLog: false });
    expect(report.check.anomalyTypes).not.toContain('g1c');
  });
});
