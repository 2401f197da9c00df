/**
 * Goal: reproduce, to the offset, the worked example of the three offsets (seed text 000: log
 * end offset, high watermark, last stable offset) with `examples/lso-worked-example.yaml`, and
 * assert each number it names. Method: build the scenario's world exactly as the runner does
 * (`buildWorld`), drive the clock in steps and read the leader's partition log, the followers'
 * logs and the read_committed consumer's `position()` at the moments the example names; call the
 * consumer's own `endOffsets()` from a kernel event at the observation time. The final reads and
 * the history check are left out to keep the test fast: the CLI run of the same file does them.
 *
 * How the offsets come out exact (the scenario's description says the same): producers write in
 * separate time windows, so the order of appends does not depend on network delays.
 *   [0, 880000)       plain, 352 steps of 2,500 non-transactional records (one every 2 s)
 *   [880000, 882500)  opener's transaction: it opens at 880,000 and stays open
 *   [882500, 885000)  plain, step 352
 *   [885000, 889999)  committer's transaction, 4,999 records
 *   889999            committer's COMMIT marker: the transaction spans [885000, 890000)
 *   [890000, 900000)  plain, steps 353-356: log end offset 900,000
 *   900000            opener's COMMIT marker, at about 715 s: log end offset 900,001
 * The seed text says the LSO then jumps to 900,000; the marker takes offset 900,000, so the
 * exact value is 900,001 once the marker is replicated (the text rounds it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, type World } from '../../sim/runner';
import { loadScenario } from '../../scenarios';
import type { KafkaConsumer, LogBatch, PartitionLog } from '../../sim/actors';
import { deliveredRecords, initGranted, readOps } from '../scenario/history_queries';

const FILE = 'examples/lso-worked-example.yaml';
const SEED = '1';
const TP = { topic: 'events', partition: 0 };
/** plain's last step (356 × 2 s) is acknowledged by about 712.3 s. */
const CAUGHT_UP_US = 712_600_000;
/** The moment the example describes: everything written, opener still open. */
const OBSERVE_US = 714_000_000;
/** opener commits about 12.3 s after its one step at about 702.7 s. */
const BEFORE_COMMIT_US = 714_900_000;
/** The end of the workload phase (`run.duration.ms`). */
const END_US = 720_000_000;

interface Observed {
  readonly world: World;
  /** Each producer's producerId, from its `init` or first send. */
  readonly producerIds: ReadonlyMap<string, number>;
  /** reader's `position()` at CAUGHT_UP_US, OBSERVE_US and BEFORE_COMMIT_US. */
  readonly positions: readonly number[];
  /** reader's `endOffsets()` asked at OBSERVE_US. */
  endOffset: number | undefined;
  /** The leader's offsets at OBSERVE_US, and each replica's (log end offset, HW). */
  readonly atObserve: {
    readonly logEndOffset: number;
    readonly highWatermark: number;
    readonly lastStableOffset: number;
    readonly openTransactions: ReadonlyMap<number, number>;
    readonly replicas: ReadonlyArray<readonly [number, number]>;
    readonly committedRead: readonly LogBatch[];
    readonly uncommittedReadEnd: number;
  };
}

function leaderLog(world: World): PartitionLog {
  for (const { broker } of world.brokers) {
    const replica = broker.partitions.get('events-0');
    if (replica?.role === 'leader') return replica.log;
  }
  throw new Error('Expected a leader of events-0');
}

const SCENARIO = loadScenario(FILE);

/** The consumer of client `reader` (`world.clients[i]` runs `scenario.clients[i]`). */
function readerConsumer(world: World): KafkaConsumer {
  const index = SCENARIO.clients.findIndex((client) => client.name === 'reader');
  const consumer = world.clients[index]?.kafkaConsumer;
  if (consumer === null || consumer === undefined) throw new Error('Expected reader consumer');
  return consumer;
}

/** Runs the scenario to the end of its workload phase, probing on the way. */
function observe(): Observed {
  const world = buildWorld(SCENARIO, { seed: SEED });
  const positions: number[] = [];
  const consumer = (): KafkaConsumer => readerConsumer(world);
  world.sim.runUntil(CAUGHT_UP_US);
  positions.push(consumer().position(TP) ?? -1);
  const observed: Partial<Observed> & { endOffset: number | undefined } = { endOffset: undefined };
  world.sim.schedule(OBSERVE_US, 'probe endOffsets', () =>
    consumer().endOffsets([TP], (offsets) => {
      observed.endOffset = offsets.get('events-0');
    }),
  );
  world.sim.runUntil(OBSERVE_US);
  positions.push(consumer().position(TP) ?? -1);
  const log = leaderLog(world);
  const atObserve = {
    logEndOffset: log.logEndOffset,
    highWatermark: log.highWatermark,
    lastStableOffset: log.lastStableOffset,
    openTransactions: new Map(log.openTransactions),
    replicas: world.brokers.map(({ broker }) => {
      const replicaLog = broker.partitions.get('events-0')?.log;
      return [replicaLog?.logEndOffset ?? -1, replicaLog?.highWatermark ?? -1] as const;
    }),
    committedRead: log.read(880_000, 'read_committed', 1_000_000).batches,
    uncommittedReadEnd:
      (log.read(880_000, 'read_uncommitted', 1_000_000).batches.at(-1)?.lastOffset ?? -2) + 1,
  };
  world.sim.runUntil(BEFORE_COMMIT_US);
  positions.push(consumer().position(TP) ?? -1);
  world.sim.runUntil(END_US);
  const history = world.recorder.history;
  const producerIds = new Map<string, number>();
  for (const client of ['opener', 'committer']) {
    producerIds.set(client, initGranted(history, client)?.producerId ?? -2);
  }
  const plainSend = history.find((op) => op.client === 'plain' && op.type === 'ok');
  producerIds.set('plain', plainSend?.f === 'send' ? (plainSend.value.producerId ?? -2) : -2);
  return Object.assign(observed, { world, producerIds, positions, atObserve });
}

/** The log as runs of consecutive batches of one producer and kind: `first-last kind client`. */
function layout(log: PartitionLog, clients: ReadonlyMap<string, number>): string[] {
  const nameOf = new Map([...clients].map(([name, producerId]) => [producerId, name]));
  const runs: Array<{ first: number; last: number; key: string }> = [];
  for (const batch of log.log) {
    const kind = batch.control ?? (batch.isTransactional ? 'txn' : 'data');
    const key = `${kind} ${nameOf.get(batch.producerId) ?? String(batch.producerId)}`;
    const run = runs.at(-1);
    if (run !== undefined && run.key === key && run.last + 1 === batch.baseOffset) {
      run.last = batch.lastOffset;
    } else {
      runs.push({ first: batch.baseOffset, last: batch.lastOffset, key });
    }
  }
  return runs.map((run) => `${run.first}-${run.last} ${run.key}`);
}

describe(`the worked example of the three offsets (${FILE}, seed ${SEED})`, () => {
  let run: Observed;
  beforeAll(() => {
    run = observe();
  }, 600_000);

  it('lays the log out as the example needs, markers included', () => {
    expect(layout(leaderLog(run.world), run.producerIds)).toEqual([
      '0-879999 data plain',
      '880000-882499 txn opener',
      '882500-884999 data plain',
      '885000-889998 txn committer',
      '889999-889999 COMMIT committer',
      '890000-899999 data plain',
      '900000-900000 COMMIT opener',
    ]);
  });

  it('has log end offset 900,000 and high watermark 900,000 on every replica', () => {
    expect(run.atObserve.logEndOffset).toBe(900_000);
    expect(run.atObserve.highWatermark).toBe(900_000);
    expect(run.atObserve.replicas).toEqual([
      [900_000, 900_000],
      [900_000, 900_000],
      [900_000, 900_000],
    ]);
  });

  it('has one transaction open, from 880,000, so the last stable offset is 880,000', () => {
    const opener = run.producerIds.get('opener') ?? -2;
    expect([...run.atObserve.openTransactions]).toEqual([[opener, 880_000]]);
    expect(run.atObserve.lastStableOffset).toBe(880_000);
  });

  it("hides committer's committed records and plain's records above 880,000", () => {
    // A read_committed fetch from 880,000 returns nothing; read_uncommitted returns up to the
    // high watermark: committer's COMMIT marker at 889,999 is in, replicated and invisible.
    expect(run.atObserve.committedRead).toEqual([]);
    expect(run.atObserve.uncommittedReadEnd).toBe(900_000);
    // reader started at 707 s with auto.offset.reset latest: ListOffsets(LATEST) under
    // read_committed is the LSO, so it began at 880,000 and received nothing until the commit.
    const jumpUs = lastStableOffsetJump(run).timeUs;
    const polls = readOps(run.world.recorder.history, { f: 'poll', client: 'reader' });
    const beforeJump = polls.filter((op) => op.timeUs < jumpUs);
    // Each poll of an idle partition lasts its 100 ms timeout (the fetch is parked, a long poll).
    expect(beforeJump.length).toBeGreaterThan(30);
    expect(deliveredRecords(beforeJump)).toEqual([]);
    expect(beforeJump.map((op) => op.value.positions[0]?.position ?? -1).slice(-1)).toEqual([
      880_000,
    ]);
  });

  it('shows broker-side lag 20,000, not falling, and endOffsets() - position() = 0', () => {
    expect(run.positions).toEqual([880_000, 880_000, 880_000]);
    expect(run.atObserve.logEndOffset - (run.positions[1] ?? 0)).toBe(20_000);
    expect(run.atObserve.highWatermark - (run.positions[1] ?? 0)).toBe(20_000);
    expect(run.endOffset).toBe(880_000);
    expect((run.endOffset ?? -1) - (run.positions[1] ?? 0)).toBe(0);
  });

  it('jumps the last stable offset from 880,000 to 900,001 in one step on commit', () => {
    const jump = lastStableOffsetJump(run);
    expect(jump.before).toBe(880_000);
    expect(jump.timeUs).toBeGreaterThan(BEFORE_COMMIT_US);
    expect(jump.after).toBe(900_001);
    // The marker is replicated at that moment: the high watermark reaches 900,001 with it.
    const log = leaderLog(run.world);
    const highWatermark = log.highWatermarkChanges.filter((change) => change.timeUs <= jump.timeUs);
    expect(highWatermark.at(-1)).toEqual({ timeUs: jump.timeUs, offset: 900_001 });
    expect(log.lastStableOffset).toBe(900_001);
  });

  it('makes 880,000-899,999 visible at once: 19,999 records, then position 900,001', () => {
    const jumpUs = lastStableOffsetJump(run).timeUs;
    const polls = readOps(run.world.recorder.history, { f: 'poll', client: 'reader' });
    const after = deliveredRecords(polls.filter((op) => op.timeUs >= jumpUs));
    const offsets = after.map((record) => record.offset);
    const expected = Array.from({ length: 20_000 }, (_, index) => 880_000 + index).filter(
      (offset) => offset !== 889_999,
    );
    expect(offsets).toEqual(expected);
    expect(readerConsumer(run.world).position(TP)).toBe(900_001);
  });
});

/** The one change of the leader's last stable offset after the observation time. */
function lastStableOffsetJump(run: Observed): { before: number; after: number; timeUs: number } {
  const changes = leaderLog(run.world).lastStableOffsetChanges;
  const later = changes.filter((change) => change.timeUs > OBSERVE_US);
  expect(later).toHaveLength(1);
  const before = changes.filter((change) => change.timeUs <= OBSERVE_US).at(-1);
  const [jump] = later;
  if (jump === undefined || before === undefined) throw new Error('Expected one LSO jump');
  return { before: before.offset, after: jump.offset, timeUs: jump.timeUs };
}
