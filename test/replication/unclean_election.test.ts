/**
 * Goal: pin exactly what an unclean leader election loses (KIP-106;
 * PartitionChangeBuilder.tryElection) and what refusing one costs (PartitionChangeBuilder.build,
 * electAnyLeader). With unclean.leader.election.enable=true a stale replica becomes leader, the HW
 * clients see moves back, acknowledged acks=all records vanish from every log once the old replicas
 * return and truncate (KIP-101; AbstractFetcherThread.getOffsetTruncationState), and their offsets
 * are reused; with it false the partition goes offline until its last ISR member returns, and
 * nothing is lost. Method: a 3-broker cluster (seed 1, 1 ms network delay, min.insync.replicas 2,
 * replica.lag.time.max.ms 10 s, session timeout 6 s) driven by one fixed script run under both
 * settings; the test asserts the controller's election records, ListOffsets answers, produce
 * answers, truncation records and final logs, all as exact offsets and values.
 */
import { describe, expect, it } from 'vitest';
import { nodeId, type LinkRuleId } from '../../sim/kernel';
import type { PartitionState } from '../../sim/actors';
import { Cluster, lazy, recordsOf } from './cluster_harness';

/** Acknowledged by acks=all: offsets 0..4. b3 holds only 0..1 (k = 2). */
const ACKED = ['0=100', '1=101', '2=102', '3=103', '4=104'];

/**
 * 100 and 101 are replicated everywhere by 1.1 s; b3 is cut off b1 at 2 s; 102 (sent at 3 s)
 * waits until b1 drops b3 from the ISR at its 15 s check; 103 and 104 follow at 16 s. b2
 * crashes at 18.5 s and b1 at 20.5 s; the controller fences b2 at 24.5 s (ISR [b1]) and b1 at
 * 26.5 s, when only b3 is alive. The cut heals at 27 s; a client asks b3 for the end offset at
 * 28 s and produces to it at 29 s; b2 restarts at 30 s and b1 at 32 s.
 */
function script(uncleanLeaderElectionEnable: boolean) {
  const cluster = new Cluster({ uncleanLeaderElectionEnable });
  let cuts: LinkRuleId[] = [];
  const acks = [
    cluster.produceAt(1_000_000, { target: 'b1', acks: -1, values: [100] }),
    cluster.produceAt(1_100_000, { target: 'b1', acks: -1, values: [101] }),
  ];
  cluster.at(2_000_000, () => (cuts = cluster.cut({ from: 'b1', to: 'b3', bothWays: true })));
  acks.push(cluster.produceAt(3_000_000, { target: 'b1', acks: -1, values: [102] }));
  acks.push(cluster.produceAt(16_000_000, { target: 'b1', acks: -1, values: [103] }));
  acks.push(cluster.produceAt(16_100_000, { target: 'b1', acks: -1, values: [104] }));
  const beforeCrash = cluster.snapshotAt(17_500_000, 'b1');
  const endFromB1 = cluster.listLatestAt(17_000_000, 'b1');
  cluster.at(18_500_000, () => cluster.sim.crash(nodeId('b2'), 'process'));
  cluster.at(20_500_000, () => cluster.sim.crash(nodeId('b1'), 'process'));
  const states: Record<string, PartitionState> = {};
  const stateAt = (atUs: number): void =>
    cluster.at(atUs, () => (states[atUs] = cluster.partitionState()));
  stateAt(26_600_000);
  cluster.at(27_000_000, () => cluster.heal(cuts));
  const endFromB3 = cluster.listLatestAt(28_000_000, 'b3');
  const allToB3 = cluster.produceAt(29_000_000, { target: 'b3', acks: -1, values: [199] });
  const oneToB3 = cluster.produceAt(29_100_000, { target: 'b3', acks: 1, values: [200] });
  cluster.at(30_000_000, () => cluster.sim.restart(nodeId('b2')));
  stateAt(31_500_000);
  cluster.at(32_000_000, () => cluster.sim.restart(nodeId('b1')));
  cluster.runTo(40_000_000);
  return { cluster, acks, beforeCrash, endFromB1, states, endFromB3, allToB3, oneToB3 };
}

describe('unclean.leader.election.enable=true', () => {
  const run = lazy(() => script(true));

  it('acknowledges offsets 0..4 with ISR [b1, b2] while b3 holds only 0..1', () => {
    const { cluster, acks, beforeCrash, endFromB1 } = run();
    expect(acks.map((answer) => `${answer()?.error}@${answer()?.baseOffset}`)).toEqual([
      'NONE@0',
      'NONE@1',
      'NONE@2',
      'NONE@3',
      'NONE@4',
    ]);
    // 102 waited for the ISR shrink committed at 15.002 s.
    expect(acks[2]?.()?.timeUs).toBe(15_003_000);
    expect(beforeCrash()).toMatchObject({ logEndOffset: 5, highWatermark: 5, isr: ['b1', 'b2'] });
    expect(endFromB1()).toBe('NONE:5');
    expect(cluster.replica('b3').truncations).toEqual([]);
  });

  it('elects b3 uncleanly with epoch 1 and ISR [b3] when b1 is fenced', () => {
    const { cluster, states } = run();
    expect(cluster.elections()).toEqual([
      {
        timeUs: 26_500_000,
        topic: 'events',
        partition: 0,
        leader: 'b3',
        leaderEpoch: 1,
        kind: 'unclean',
      },
    ]);
    expect(states[26_600_000]).toMatchObject({ leader: 'b3', leaderEpoch: 1, isr: ['b3'] });
  });

  it('the HW clients see moves back from 5 to 2', () => {
    const { endFromB1, endFromB3 } = run();
    expect([endFromB1(), endFromB3()]).toEqual(['NONE:5', 'NONE:2']);
  });

  it('b3 refuses acks=all (ISR [b3] < 2) and reuses offset 2 for an acks=1 record', () => {
    const { allToB3, oneToB3 } = run();
    expect(allToB3()).toMatchObject({ error: 'NOT_ENOUGH_REPLICAS', baseOffset: -1 });
    expect(oneToB3()).toMatchObject({ error: 'NONE', baseOffset: 2 });
  });

  it('b2 and b1 each truncate to 2 on return, losing exactly offsets 2..4 (102, 103, 104)', () => {
    const { cluster } = run();
    const returns = [
      ['b2', 30_004_000],
      ['b1', 32_004_000],
    ] as const;
    for (const [id, timeUs] of returns) {
      const truncations = cluster.replica(id).truncations;
      expect(truncations.map((t) => [t.timeUs, t.toOffset, t.reason])).toEqual([
        [timeUs, 2, 'diverging-epoch'],
      ]);
      expect(recordsOf(truncations[0]?.removed ?? [])).toEqual(['2=102', '3=103', '4=104']);
    }
  });

  it('every log ends as b3 history: the acknowledged 102..104 are gone everywhere', () => {
    const { cluster } = run();
    for (const id of ['b1', 'b2', 'b3']) {
      expect(cluster.records(id)).toEqual(['0=100', '1=101', '2=200']);
      expect(cluster.replica(id).log.highWatermark).toBe(3);
    }
    const lost = ACKED.filter((record) => !cluster.records('b3').includes(record));
    expect(lost).toEqual(['2=102', '3=103', '4=104']);
    // b1's own HW went 5 -> 2 at the truncation, then on to 3.
    const b1Hw = cluster.replica('b1').log.highWatermarkChanges.map((change) => change.offset);
    expect(b1Hw.slice(-3)).toEqual([5, 2, 3]);
  });
});

describe('unclean.leader.election.enable=false', () => {
  const run = lazy(() => script(false));

  it('leaves the partition offline with ISR [b1] when b1 is fenced', () => {
    const { cluster, states, endFromB3, allToB3, oneToB3 } = run();
    expect(cluster.elections()[0]).toEqual({
      timeUs: 26_500_000,
      topic: 'events',
      partition: 0,
      leader: null,
      leaderEpoch: 1,
      kind: 'offline',
    });
    expect(states[26_600_000]).toMatchObject({ leader: null, isr: ['b1'] });
    expect(endFromB3()).toBe('NOT_LEADER_OR_FOLLOWER:-1');
    expect(allToB3()).toMatchObject({ error: 'NOT_LEADER_OR_FOLLOWER' });
    expect(oneToB3()).toMatchObject({ error: 'NOT_LEADER_OR_FOLLOWER' });
  });

  it('stays offline when b2, no longer in the ISR, returns first', () => {
    const { states } = run();
    expect(states[31_500_000]).toMatchObject({ leader: null, leaderEpoch: 1, isr: ['b1'] });
  });

  it('comes back cleanly when b1, the last ISR member, returns', () => {
    const { cluster } = run();
    expect(cluster.elections()).toHaveLength(2);
    expect(cluster.elections()[1]).toMatchObject({
      timeUs: 32_001_000,
      leader: 'b1',
      leaderEpoch: 2,
      kind: 'clean',
    });
    expect(cluster.partitionState()).toMatchObject({ leader: 'b1', isr: ['b1', 'b2', 'b3'] });
  });

  it('loses nothing: no truncation, every log holds all five acknowledged records', () => {
    const { cluster } = run();
    for (const id of ['b1', 'b2', 'b3']) {
      expect(cluster.replica(id).truncations).toEqual([]);
      expect(cluster.records(id)).toEqual(ACKED);
      expect(cluster.replica(id).log.highWatermark).toBe(5);
    }
  });
});
