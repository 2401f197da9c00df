/**
 * Goal: a pipeline's reads are judged as a plain consumer's are. Each pipeline poll is a `poll`
 * operation, so `uncommitted-read`, `read-above-hw`, `poll-skip` and `nonmonotonic-poll` read it;
 * a rewind to the committed offsets after an abort, and a new assignment, are recorded as
 * `repositioned` and restart the poll order instead of counting as a poll that went back. Method:
 * one read_committed pipeline reading a transactional producer's input (no other consumer, so
 * every poll judged is the pipeline's), aborting every third transaction and rewinding: clean, with
 * polls and a rewind recorded. Then the same run under a test-only mutation: partition leaders
 * serve read_committed fetches as read_uncommitted ones, up to the high watermark instead of the
 * last stable offset (Kafka's FetchIsolation.TXN_COMMITTED ignored), and the pipeline's reads of
 * open transactions are `uncommitted-read`.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartitionLog } from '../../sim/actors';
import { runScenario } from '../../sim/runner';
import { parseScenario } from '../../scenarios';

const SCENARIO = `
name: pipeline-polls
cluster:
  brokers: 3
  topics:
    - name: in
      partitions: 2
    - name: out
      partitions: 2
clients:
  - name: source
    role: producer
    # The mutation's uncommitted reads need the source's records to go one by one: linger.ms 0
    # (with Kafka 4.0's default 5 the same mutation shows as aborted-read only).
    config: { transactional.id: source, linger.ms: 0 }
    workload:
      transactions: 60
      records.per.transaction: 10
      send.interval.ms: 8
      transaction.interval.ms: 1
      topics: [in]
  - name: P1
    role: pipeline
    config:
      transactional.id: etl-1
      group.id: etl
      isolation.level: read_committed
      enable.auto.commit: false
      auto.offset.reset: earliest
    workload:
      topics: [in]
      output.topic: out
      abort.every: 3
run:
  duration.ms: 5000
  heal.ms: 10000
`;

function run() {
  return runScenario(parseScenario(SCENARIO, 'pipeline-polls.yaml'), {
    seed: '1',
    messageLog: false,
  });
}

describe('pipeline polls', () => {
  afterEach(() => vi.restoreAllMocks());

  it('are recorded, with the rewinds after aborts, and judged clean', () => {
    const { report, history } = run();
    const polls = history.filter((op) => op.f === 'poll' && op.client === 'P1' && op.type === 'ok');
    expect(polls.some((op) => op.f === 'poll' && op.value.batches.length > 0)).toBe(true);
    // The first assignment and every rewind after a chosen abort.
    const repositioned = polls.filter((op) => op.f === 'poll' && op.value.repositioned);
    expect(repositioned.length).toBeGreaterThan(1);
    expect(report.check.anomalyTypes).toEqual([]);
  });

  it('report uncommitted-read when leaders serve read_committed up to the high watermark', () => {
    // Test-only mutation: a read_committed fetch is read as read_uncommitted (up to the HW,
    // open transactions included), with an empty aborted-transactions list.
    const read = PartitionLog.prototype.read;
    vi.spyOn(PartitionLog.prototype, 'read').mockImplementation(function (
      this: PartitionLog,
      fetchOffset,
      isolationLevel,
      ...rest
    ) {
      if (isolationLevel === 'read_uncommitted')
        return read.call(this, fetchOffset, isolationLevel, ...rest);
      const uncommitted = read.call(this, fetchOffset, 'read_uncommitted', ...rest);
      return { ...uncommitted, abortedTransactions: [] };
    });
    const { report } = run();
    const pipelineReads = report.check.anomalies.filter(
      (anomaly) => anomaly.kind === 'uncommitted-read' && anomaly.client === 'P1',
    );
    expect(pipelineReads.length).toBeGreaterThan(0);
    expect(pipelineReads[0]).toMatchObject({ topic: 'in' });
  });
});
