/**
 * Goal: assert the "Expected behaviour" list EXP-01 to EXP-08 of
 * ../shared/cases/kafka-failure-cases.md, one named test per fact. Method: small scripted runs
 * (inline scenarios on one partition, built with the runner's own `buildWorld` or run with
 * `runScenario`), unit calls on a `PartitionLog`, the scenario loader's resolved defaults, and
 * the replication harness of test/replication. Facts the simulator does not model yet are
 * `it.todo` with the exact assertion in a comment; they are listed in the lead's report.
 */
import { describe, expect, it } from 'vitest';
import { buildWorld, runScenario, type RunResult } from '../../sim/runner';
import { parseScenario } from '../../scenarios';
import { NO_PRODUCER_ID, PartitionLog, transactionStatePartitionFor } from '../../sim/actors';
import type { ProducedBatch } from '../../sim/actors';
import type { OraclePartition } from '../../sim/history';
import { Cluster } from '../replication/cluster_harness';
import { oracleRecords, initGranted, readOps } from '../scenario/history_queries';
import { deliveredRecordsOf } from '../../sim/history';

const T0 = { topic: 't', partition: 0 };

/** A minimal valid scenario around `clients`, on one broker unless `cluster` says otherwise. */
function scenario(options: { clients: string; extra?: string; cluster?: string }): string {
  const cluster =
    options.cluster ??
    `cluster:
  brokers: 1
  topics:
    - name: t
      partitions: 1`;
  return `name: exp\n${cluster}\nclients:\n${options.clients}\n${options.extra ?? ''}`;
}

function batch(fields: Partial<ProducedBatch> & { values: number[] }): ProducedBatch {
  return {
    producerId: NO_PRODUCER_ID,
    producerEpoch: -1,
    baseSequence: -1,
    isTransactional: false,
    ...fields,
  };
}

function replicatedLog(): PartitionLog {
  const log = new PartitionLog('t', 0, {
    skipProducerEpochCheck: false,
    verificationGuardBeforeEpochCheck: false,
    acceptAnyFirstSequenceOnEmptyLog: false,
    singleBatchDedupWindow: false,
  });
  log.replicated = true;
  return log;
}

const MARKER = { coordinatorEpoch: 0, committed: true };

/** Partition t-0 in a run's oracle (which also lists the __transaction_state partitions). */
function partitionT(run: RunResult): OraclePartition | undefined {
  return run.oracle.partitions.find((partition) => partition.topic === 't');
}

describe('EXP-01 LSO and end offsets', () => {
  it('LSO = min(HW, firstUnstableOffset), = HW with nothing open, never above HW', () => {
    const log = replicatedLog();
    log.appendAsLeader(batch({ values: [1, 2, 3] }), 1);
    log.setHighWatermark(3, 2);
    expect([log.highWatermark, log.lastStableOffset]).toEqual([3, 3]);
    const txn = { producerId: 7, producerEpoch: 0, isTransactional: true };
    log.appendAsLeader(batch({ ...txn, baseSequence: 0, values: [4, 5] }), 3); // offsets 3-4
    expect(log.lastStableOffset).toBe(3); // first unstable 3, HW 3
    log.appendAsLeader(batch({ values: [6, 7] }), 4); // offsets 5-6
    log.setHighWatermark(7, 5);
    expect([log.highWatermark, log.lastStableOffset]).toEqual([7, 3]);
    expect(log.read(0, 'read_committed', 100).batches.map((b) => b.lastOffset)).toEqual([2]);
    expect(log.read(0, 'read_uncommitted', 100).batches.map((b) => b.lastOffset)).toEqual([
      2, 4, 6,
    ]);
    expect(log.appendMarker({ ...txn, ...MARKER }, 6)).toBe('NONE'); // COMMIT at 7
    expect([log.logEndOffset, log.highWatermark, log.lastStableOffset]).toEqual([8, 7, 3]);
    log.setHighWatermark(8, 7); // the marker is replicated: nothing open, LSO = HW
    expect([log.highWatermark, log.lastStableOffset]).toEqual([8, 8]);
    log.setHighWatermark(6, 8); // a lower HW (new leader) pulls the LSO down with it
    expect([log.highWatermark, log.lastStableOffset]).toEqual([6, 6]);
  });

  it('endOffsets(): LSO for read_committed, HW for read_uncommitted (default), 0 if empty', () => {
    const text = scenario({
      cluster: `cluster:
  brokers: 1
  topics:
    - name: t
    - name: empty`,
      clients: `  - name: plain
    role: producer
    workload: { sends: 3, send.interval.ms: 1, topics: [t] }
  - name: open
    role: producer
    config: { transactional.id: open-tx }
    workload: { start.ms: 500, transactions: 1, records.per.transaction: 2,
                send.interval.ms: 5000, topics: [t] }
  - name: late
    role: producer
    workload: { start.ms: 1000, sends: 4, send.interval.ms: 1, topics: [t] }
  - name: rc
    role: consumer
    config: { isolation.level: read_committed }
    workload: { topics: [t, empty] }
  - name: ru
    role: consumer
    workload: { topics: [t, empty] }`,
      extra: 'run:\n  duration.ms: 8000',
    });
    const config = parseScenario(text, 'inline/exp-01.yaml');
    expect(config.clients[4]?.settings).toMatchObject({ isolationLevel: 'read_uncommitted' });
    const world = buildWorld(config, { seed: '1' });
    const answers = new Map<string, Map<string, number>>();
    world.sim.schedule(3_000_000, 'probe endOffsets', () => {
      for (const index of [3, 4]) {
        const consumer = world.clients[index]?.kafkaConsumer;
        const name = config.clients[index]?.name ?? '';
        const partitions = [T0, { topic: 'empty', partition: 0 }];
        consumer?.endOffsets(partitions, (offsets) => answers.set(name, offsets));
      }
    });
    world.sim.runUntil(3_500_000);
    const log = world.brokers[0]?.broker.partitions.get('t-0')?.log;
    // plain 0-2, open's first record at 3 (its second is due at 5.5 s), late 4-7:
    // LEO = HW = 8, LSO = 3.
    expect([log?.logEndOffset, log?.highWatermark, log?.lastStableOffset]).toEqual([8, 8, 3]);
    expect(Object.fromEntries(answers.get('rc') ?? [])).toEqual({ 't-0': 3, 'empty-0': 0 });
    expect(Object.fromEntries(answers.get('ru') ?? [])).toEqual({ 't-0': 8, 'empty-0': 0 });
  });
});

/** One transaction of 5 records, committed; one consumer per isolation level from offset 0. */
const ONE_COMMIT = scenario({
  clients: `  - name: committer
    role: producer
    config: { transactional.id: tx }
    workload: { transactions: 1, records.per.transaction: 5, topics: [t] }
  - name: rc
    role: consumer
    config: { isolation.level: read_committed, auto.offset.reset: earliest }
    workload: { topics: [t] }
  - name: ru
    role: consumer
    config: { auto.offset.reset: earliest }
    workload: { topics: [t] }`,
  extra: 'run:\n  duration.ms: 2000',
});

describe('EXP-02 control markers occupy offsets but are never delivered', () => {
  it('records 0-4 + COMMIT@5: position() is 6, the last record returned is 4', () => {
    const run = runScenario(parseScenario(ONE_COMMIT, 'inline/one-commit.yaml'), { seed: '1' });
    // Workload phase only: after heal the runner's liveness probe commits one more transaction.
    const partition = partitionT(run);
    const workload = oracleRecords(partition).filter((record) => record.appendUs <= 2_000_000);
    expect(workload?.map((record) => record.control ?? record.offset)).toEqual([
      0,
      1,
      2,
      3,
      4,
      'COMMIT',
    ]);
    for (const client of ['rc', 'ru']) {
      const polls = readOps(run.history, { f: 'poll', client }).filter(
        (op) => op.timeUs <= 2_000_000,
      );
      const offsets = polls.flatMap((op) =>
        deliveredRecordsOf(op.value).map((record) => record.offset),
      );
      expect(offsets).toEqual([0, 1, 2, 3, 4]);
      expect(polls.at(-1)?.value.positions[0]?.position).toBe(6);
    }
  });

  it('read_committed skips aborted records; a poll of only those returns early, moved on', () => {
    const text = scenario({
      clients: `  - name: aborter
    role: producer
    config: { transactional.id: tx-abort }
    workload: { transactions: 1, records.per.transaction: 3, abort.every: 1, close.when.done: true,
                topics: [t] }
  - name: rc
    role: consumer
    config: { isolation.level: read_committed, auto.offset.reset: earliest }
    workload: { start.ms: 1000, topics: [t] }`,
      extra: 'run:\n  duration.ms: 2000',
    });
    const run = runScenario(parseScenario(text, 'inline/abort.yaml'), { seed: '1' });
    const polls = readOps(run.history, { f: 'poll', client: 'rc' });
    // Records 0-2 aborted, ABORT@3: the first poll returns nothing and ends at position 4.
    expect(polls.flatMap((op) => deliveredRecordsOf(op.value))).toEqual([]);
    expect(polls[0]?.value.positions[0]?.position).toBe(4);
  });
});

/** A producer asking for `timeoutMs`; returns its `init` completion. */
function initWithTimeout(timeoutMs: number): { type: string; error: string | undefined } {
  const text = scenario({
    clients: `  - name: p
    role: producer
    config: { transactional.id: tx, transaction.timeout.ms: ${timeoutMs} }
    workload: { transactions: 1, topics: [t] }`,
    extra: 'run:\n  duration.ms: 1000',
  });
  const run = runScenario(parseScenario(text, 'inline/timeout.yaml'), { seed: '1' });
  const init = run.history.find((op) => op.f === 'init' && op.type !== 'invoke');
  return { type: init?.type ?? 'none', error: init?.error };
}

describe('EXP-03 transaction timeouts', () => {
  it('defaults: transaction.timeout.ms 60000, max 900000, cleanup interval 10000', () => {
    const config = parseScenario(
      scenario({
        clients: `  - name: p\n    role: producer\n    config: { transactional.id: tx }
    workload: { transactions: 1, topics: [t] }`,
        extra: 'run:\n  duration.ms: 1000',
      }),
      'inline/defaults.yaml',
    );
    expect(config.clients[0]?.settings).toMatchObject({ transactionTimeoutMs: 60_000 });
    expect(config.broker.transactionMaxTimeoutMs).toBe(900_000);
    expect(config.broker.transactionAbortTimedOutTransactionCleanupIntervalMs).toBe(10_000);
  });

  it('refuses transaction.timeout.ms above transaction.max.timeout.ms at InitProducerId', () => {
    expect(initWithTimeout(900_001)).toEqual({
      type: 'fail',
      error: 'INVALID_TRANSACTION_TIMEOUT',
    });
    expect(initWithTimeout(900_000)).toEqual({ type: 'ok', error: undefined });
  });

  it('starts the clock at AddPartitionsToTxn; aborts at the next scan, epoch + 1', () => {
    // Each transaction sends one record and commits 1 s later. Transaction 1 commits at about
    // 1 s; transaction 2 starts 8 s later (about 9 s) and its producer pauses at 9.5 s, before
    // the commit. Deadline about 9 + 15 = 24 s: the scan at 30 s aborts it. Had the clock
    // started at InitProducerId (about 0 s), the scan at 20 s would have.
    const text = scenario({
      clients: `  - name: p
    role: producer
    config: { transactional.id: tx, transaction.timeout.ms: 15000 }
    workload: { transactions: 2, send.interval.ms: 1000, transaction.interval.ms: 8000,
                topics: [t] }`,
      extra: `faults:
  - { kind: pause, target: p, at.ms: 9500, for.ms: 40000 }
run:
  duration.ms: 60000`,
    });
    const run = runScenario(parseScenario(text, 'inline/timeout-abort.yaml'), { seed: '1' });
    const granted = initGranted(run.history, 'p');
    expect(granted).toBeDefined();
    const second = oracleRecords(partitionT(run)).filter((record) => !record.control)[1];
    const deadlineUs = (second?.appendUs ?? 0) + 15_000_000;
    expect(deadlineUs).toBeGreaterThan(20_000_000);
    expect(deadlineUs).toBeLessThan(30_000_000);
    const timeouts = run.oracle.epochGrants.filter((grant) => grant.reason === 'timeout');
    expect(timeouts).toEqual([
      {
        timeUs: 30_000_000,
        transactionalId: 'tx',
        producerId: granted?.producerId,
        // The epoch the open transaction's records carry, plus one.
        producerEpoch: (second?.producerEpoch ?? -2) + 1,
        reason: 'timeout',
      },
    ]);
  });

  // Not modelled: PartitionsWithLateTransactionsCount. Once partition leaders track it:
  // expect(lateTransactionsCount(leaderLog, atUs = firstOffsetAppendUs + (900_000 + 300_000) * 1000
  //   + 1)).toBe(1), and 0 one microsecond earlier (LATE_TRANSACTION_BUFFER_MS = 5 min).
  it.todo('counts a partition as having a late transaction after max timeout + 5 min');
});

describe('EXP-04 expirations', () => {
  // Not modelled (no expiry in sim/actors/coordinator): once it is,
  // expect(config.broker.transactionalIdExpirationMs).toBe(604_800_000);
  // expect(config.broker.transactionRemoveExpiredTransactionCleanupIntervalMs).toBe(3_600_000);
  // and an id idle for 604_800_000 ms is gone at the next 1 h scan, never while Ongoing.
  it.todo('expires a transactional.id after 7 days without status updates, never while Ongoing');
  // Not modelled (no expiry in sim/actors/broker/producer_state.ts): once it is,
  // expect(config.broker.producerIdExpirationMs).toBe(86_400_000), checked every 600_000 ms,
  // never while a transaction is open; then a batch with any sequence is accepted (EXP-06).
  it.todo('expires a producerId on a partition leader after 1 day, never with a transaction open');
});

describe('EXP-05 __transaction_state layout', () => {
  it('50 partitions by default; partition = abs(Java hashCode) % 50, abs(MIN_VALUE) = 0', () => {
    const config = parseScenario(ONE_COMMIT, 'inline/one-commit.yaml');
    expect(config.broker.transactionStateLogNumPartitions).toBe(50);
    // Java: "tx".hashCode() = 3716; "orders-tx".hashCode() = -390713748.
    expect(transactionStatePartitionFor('tx', 50)).toBe(16);
    expect(transactionStatePartitionFor('orders-tx', 50)).toBe(48);
    // "polygenelubricants".hashCode() is Integer.MIN_VALUE; Kafka's Utils.abs maps it to 0.
    expect(transactionStatePartitionFor('polygenelubricants', 50)).toBe(0);
  });

  it('__transaction_state has replication factor 3 and min ISR 2 by default', () => {
    const config = parseScenario(ONE_COMMIT, 'inline/one-commit.yaml');
    expect(config.broker.transactionStateLogReplicationFactor).toBe(3);
    expect(config.broker.transactionStateLogMinIsr).toBe(2);
  });
});

describe('EXP-06 idempotence: defaults, dedup window, sequence rules', () => {
  it('defaults: acks all, idempotence on, retries MAX, in flight 5, delivery 120 s', () => {
    const config = parseScenario(ONE_COMMIT, 'inline/one-commit.yaml');
    expect(config.clients[0]?.settings).toMatchObject({
      acks: -1,
      enableIdempotence: true,
      retries: 2_147_483_647,
      maxInFlightRequestsPerConnection: 5,
      deliveryTimeoutMs: 120_000,
    });
    const conflicting = ONE_COMMIT.replace(
      'config: { transactional.id: tx }',
      'config: { enable.idempotence: true, max.in.flight.requests.per.connection: 6 }',
    ).replace('transactions: 1, records.per.transaction: 5', 'sends: 5');
    expect(() => parseScenario(conflicting, 'inline/conflict.yaml')).toThrow(
      /must be at most 5 to use the idempotent producer/,
    );
  });

  it('answers a retry of any of the last 5 batches with its original offsets', () => {
    const log = replicatedLog();
    const idempotent = { producerId: 3, producerEpoch: 0 };
    const sent = [0, 1, 2, 3, 4, 5].map((index) =>
      log.appendAsLeader(batch({ ...idempotent, baseSequence: index * 2, values: [0, 0] }), 1),
    );
    expect(sent.map((result) => result.baseOffset)).toEqual([0, 2, 4, 6, 8, 10]);
    for (const index of [1, 2, 3, 4, 5]) {
      const retry = batch({ ...idempotent, baseSequence: index * 2, values: [0, 0] });
      expect(log.appendAsLeader(retry, 2)).toEqual({
        error: 'NONE',
        baseOffset: index * 2,
        duplicate: true,
      });
    }
    // The first batch left the window: its retry is out of order, and nothing is written.
    const oldest = log.appendAsLeader(batch({ ...idempotent, baseSequence: 0, values: [0, 0] }), 3);
    expect(oldest.error).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(log.logEndOffset).toBe(12);
  });

  it('same epoch: last + 1 (wrapping at Int.MAX); new epoch: 0; unknown producer: any', () => {
    const log = replicatedLog();
    const append = (producerEpoch: number, baseSequence: number, values = [0]): string =>
      log.appendAsLeader(batch({ producerId: 9, producerEpoch, baseSequence, values }), 1).error;
    // KAFKA-15591: a never-written log takes only sequence 0 from a producer it does not know.
    expect(append(0, 2_147_483_646, [0, 0])).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    log.appendAsLeader(batch({ producerId: 8, producerEpoch: 0, baseSequence: 0, values: [0] }), 1);
    expect(append(0, 2_147_483_646, [0, 0])).toBe('NONE'); // unknown producer: any sequence
    expect(append(0, 5)).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER'); // a gap
    expect(append(0, 0)).toBe('NONE'); // after 2_147_483_647 comes 0
    expect(append(0, 2)).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER');
    expect(append(1, 3)).toBe('OUT_OF_ORDER_SEQUENCE_NUMBER'); // a new epoch must start at 0
    expect(append(1, 0)).toBe('NONE');
    expect(append(0, 1)).toBe('INVALID_PRODUCER_EPOCH');
  });

  // The client side (record_sender.ts, onBatchError `notNextInLine`) retries such a batch
  // without an epoch bump; no focused test drives it yet: with five batches in flight and the
  // first one's response lost, batches 2-5 get OUT_OF_ORDER_SEQUENCE_NUMBER, are retried, and
  // expect(producer.producerEpoch).toBe(epochBefore) with every record written once.
  it.todo('the client retries OUT_OF_ORDER_SEQUENCE_NUMBER of a batch not next in line');
});

describe('EXP-07 replication durability knobs', () => {
  it('defaults: unclean.leader.election.enable false, min.insync.replicas 1', () => {
    const config = parseScenario(ONE_COMMIT, 'inline/one-commit.yaml');
    expect(config.broker.uncleanLeaderElectionEnable).toBe(false);
    expect(config.broker.minInsyncReplicas).toBe(1);
  });

  it('acks=all answers once every ISR member has the record; below min ISR it is refused', () => {
    const cluster = new Cluster({ minInsyncReplicas: 2 });
    const first = cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [10] });
    const before = cluster.snapshotAt(1_001_500, 'b1');
    cluster.at(2_000_000, () => {
      cluster.cut({ from: 'b1', to: 'b2', bothWays: true });
      cluster.cut({ from: 'b1', to: 'b3', bothWays: true });
    });
    // Offset 1 (acks=1) is never fetched: the followers fall behind, and the leader's ISR
    // check at 15 s (replica.lag.time.max.ms 10 s) shrinks the ISR to itself.
    cluster.produceAt(3_000_000, { target: 'b1', acks: 1, values: [11] });
    const refused = cluster.produceAt(16_000_000, { target: 'b1', acks: -1, values: [12] });
    cluster.runTo(20_000_000);
    // Appended at 1.001 s; the answer waits for both followers' next fetches.
    expect(before()).toMatchObject({ logEndOffset: 1, highWatermark: 0 });
    const answer = first();
    expect(answer).toMatchObject({ error: 'NONE', baseOffset: 0 });
    expect(answer?.timeUs).toBeGreaterThan(1_002_000);
    expect(cluster.partitionState().isr).toEqual(['b1']);
    expect(refused()).toMatchObject({ error: 'NOT_ENOUGH_REPLICAS' });
  });
});

describe('EXP-08 transaction end lifecycle', () => {
  /**
   * Markers to the partition leader are held 3 s: the commit is acknowledged before that.
   * Transaction version 0: the client adds partitions with AddPartitionsToTxn itself; the
   * version 2 variant below has the partition leader add them.
   */
  const DELAYED_MARKERS = scenario({
    clients: `  - name: p
    role: producer
    config: { transactional.id: tx }
    workload: { transactions: 2, records.per.transaction: 2, transaction.interval.ms: 10,
                topics: [t] }`,
    extra: `protocol:
  transaction.version: 0
faults:
  - { kind: delay, messages: [WriteTxnMarkers], delay.ms: 3000, at.ms: 0, for.ms: 1000 }
run:
  duration.ms: 10000`,
  });

  it('answers EndTxn when Prepare is durable: acknowledged, not yet visible', () => {
    const run = runScenario(parseScenario(DELAYED_MARKERS, 'inline/markers.yaml'), {
      seed: '1',
    });
    expect(run.report.check.anomalyTypes).toEqual([]);
    const committed = run.history.find((op) => op.f === 'txn' && op.type === 'ok');
    const partition = partitionT(run);
    const marker = oracleRecords(partition).find((record) => record.control === 'COMMIT');
    const visible = partition?.lastStableOffsetChanges.find(
      (change) => change.offset > (marker?.offset ?? 0),
    );
    expect(committed?.timeUs).toBeLessThan(1_000_000);
    expect(marker?.appendUs).toBeGreaterThan(3_000_000);
    expect(visible?.timeUs).toBeGreaterThanOrEqual(marker?.appendUs ?? 0);
  });

  it("under TV2 the leader's add waits out the Prepare state too", () => {
    // The leader adds the partition for the client; the coordinator answers
    // CONCURRENT_TRANSACTIONS (NOT_ENOUGH_REPLICAS to the client, retriable) until Complete.
    const tv2 = DELAYED_MARKERS.replace('protocol:\n  transaction.version: 0\n', '');
    const run = runScenario(parseScenario(tv2, 'inline/markers-tv2.yaml'), { seed: '1' });
    const records = oracleRecords(partitionT(run)) ?? [];
    const marker = records.find((record) => record.control === 'COMMIT');
    const second = records.filter((record) => record.control === undefined)[2];
    expect(second?.offset).toBe(3);
    expect(second?.appendUs).toBeGreaterThan(marker?.appendUs ?? Number.POSITIVE_INFINITY);
    expect(run.report.check.anomalyTypes).toEqual([]);
    const errors = run.history.filter((op) => op.f === 'txn' && op.type !== 'invoke');
    expect(errors.every((op) => op.error === undefined)).toBe(true);
  });

  it('holds the next transaction (CONCURRENT_TRANSACTIONS) until Complete', () => {
    // The producer begins transaction 2 10 ms after the acknowledged commit, but the
    // coordinator answers its AddPartitionsToTxn with CONCURRENT_TRANSACTIONS until the markers
    // are in and CompleteCommit is written: its first record lands only after the marker.
    const run = runScenario(parseScenario(DELAYED_MARKERS, 'inline/markers.yaml'), {
      seed: '1',
    });
    const records = oracleRecords(partitionT(run)) ?? [];
    const marker = records.find((record) => record.control === 'COMMIT');
    const second = records.filter((record) => record.control === undefined)[2];
    expect(second?.offset).toBe(3);
    expect(second?.appendUs).toBeGreaterThan(marker?.appendUs ?? Number.POSITIVE_INFINITY);
    const completions = (run.oracle.coordinatorTransitions ?? []).find(
      (transition) => transition.from === 'PrepareCommit' && transition.to === 'CompleteCommit',
    );
    expect(completions?.count).toBeGreaterThanOrEqual(2);
  });

  it('verification on by default (3.6+); under transaction version 2 each EndTxn bumps', () => {
    const config = parseScenario(ONE_COMMIT, 'inline/one-commit.yaml');
    expect(config.broker.transactionPartitionVerificationEnable).toBe(true);
    expect(config.protocol.transactionVersion).toBe(2);
    // Three committed transactions: epochs 0, 1, 2 on the markers, 3 after the last EndTxn.
    const text = ONE_COMMIT.replace(
      'transactions: 1, records.per.transaction: 5',
      'transactions: 3',
    );
    const run = runScenario(parseScenario(text, 'inline/tv2.yaml'), { seed: '1' });
    const markers = oracleRecords(partitionT(run))
      .filter((record) => record.control === 'COMMIT')
      .slice(0, 3); // a fourth follows from the runner's liveness probe after heal
    const granted = initGranted(run.history, 'committer');
    const base = granted?.producerEpoch ?? -2;
    expect(markers?.map((marker) => marker.producerEpoch - base)).toEqual([1, 2, 3]);
  });
  // Epoch exhaustion after about 32,767 transactions would need a maxProducerEpoch knob to be
  // fast (../shared/cases design notes): then expect a new producerId once the epoch reaches
  // EXHAUSTED_PRODUCER_EPOCH.
  it.todo('TV2: a producerId whose epoch is exhausted is rotated to a new producerId');
});
