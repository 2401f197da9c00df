/**
 * Goal: the invariants the model asserts fire with their names inside a real run when the model
 * is broken on purpose, and end it as an internal error (an InvariantError, exit 70), while the
 * unbroken runs stay silent (every bundled scenario replays its pinned hashes with them on).
 * Method: a test-only mutation lets one high watermark pass the log end offset in a bundled
 * scenario; the controller of the shared cluster harness is handed a partition state whose
 * leader and ISR are not replicas.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PartitionLog } from '../../sim/actors';
import { InvariantError } from '../../sim/kernel';
import { runScenario } from '../../sim/runner';
import { loadScenario } from '../../scenarios';
import { TestCluster } from '../harness/cluster';

function invariantOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof InvariantError) return error.invariant;
    throw error;
  }
  return 'none';
}

describe('asserted invariants in a real run', () => {
  afterEach(() => vi.restoreAllMocks());

  it('a high watermark past the log end offset stops the run with its name', () => {
    const original = PartitionLog.prototype.setHighWatermark;
    // Test-only mutation: the high watermark replication sets is one past the log end offset,
    // no longer capped by it (Kafka's UnifiedLog.updateHighWatermark caps it).
    vi.spyOn(PartitionLog.prototype, 'setHighWatermark').mockImplementation(function (
      this: PartitionLog,
      highWatermark: number,
      nowUs: number,
    ) {
      original.call(this, highWatermark, nowUs);
      this.highWatermark = this.logEndOffset + 1;
      (this as unknown as { afterAppend(nowUs: number): void }).afterAppend(nowUs);
    });
    const scenario = loadScenario('scenarios/acks-all-leader-crash.yaml');
    expect(invariantOf(() => runScenario(scenario, { seed: '1', messageLog: false }))).toBe(
      'highWatermark <= logEndOffset',
    );
  });

  it('the controller refuses a leader or an ISR member outside the replicas', () => {
    const cluster = new TestCluster({
      topics: [{ name: 't', partitions: 1, replicationFactor: 2 }],
    });
    const [state] = cluster.controller.partitionStates();
    if (state === undefined) throw new Error('No partition');
    const store = (next: typeof state): unknown =>
      (cluster.controller as unknown as { store(s: typeof state): unknown }).store(next);
    expect(invariantOf(() => store({ ...state, leader: 'b3' }))).toBe('leader is a replica');
    expect(invariantOf(() => store({ ...state, isr: ['b1', 'b3'] }))).toBe('ISR within replicas');
    expect(invariantOf(() => store(state))).toBe('none');
  });
});
