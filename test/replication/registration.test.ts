/**
 * Goal: a broker restarted within `broker.session.timeout.ms` takes no role until the controller
 * has registered it. Kafka's BrokerServer.startup serves nothing before BrokerLifecycleManager's
 * initialCatchUpFuture completes, and the registration fences the old incarnation first
 * (ReplicationControlManager.handleBrokerFenced), so the restarted leader can never lead again
 * in the leader epoch it led before the crash, on a log that may have lost its unflushed tail.
 * (Found by swarm seed 3048 of zombie-fencing-replicated: b1 wrote markers as the epoch-1 leader
 * after a power loss, and its log then diverged inside one leader epoch.)
 * Method: b1 (first leader of t-0) loses power at 5 s and restarts at 6 s while its heartbeats
 * are held until 9 s; b3 has been down since 0.5 s, so the controller fences it at about 6.5 s
 * and publishes the change (b1 still leader, epoch 0) to the restarted b1.
 */
import { describe, expect, it } from 'vitest';
import { nodeId } from '../../sim/kernel';
import { TestCluster } from '../harness/cluster';

const B1 = nodeId('b1');

function scriptedRestart(): TestCluster {
  const cluster = new TestCluster({
    topics: [{ name: 't', partitions: 1, replicationFactor: 3 }],
    brokerSessionTimeoutMs: 6000,
  });
  let held: ReturnType<TestCluster['hold']> = [];
  cluster.at(500_000, () => cluster.sim.crash(nodeId('b3'), 'process'));
  cluster.at(5_000_000, () => {
    held = cluster.hold({ from: 'b1', to: 'controller', kind: 'BrokerHeartbeat' });
    cluster.sim.crash(B1, 'power-loss');
  });
  cluster.at(6_000_000, () => cluster.sim.restart(B1, 'power-loss'));
  cluster.at(9_000_000, () => cluster.heal(held));
  return cluster;
}

function controllerState(cluster: TestCluster) {
  return cluster.controller.partitionStates().find((state) => state.topic === 't');
}

function stateOf(cluster: TestCluster, broker: string) {
  const replica = cluster.brokers.get(broker)?.partitions.get('t-0');
  return { role: replica?.role, leaderEpoch: replica?.state.leaderEpoch };
}

describe('a broker restarted before the controller noticed', () => {
  it('takes no role from metadata published before its registration', () => {
    const cluster = scriptedRestart();
    cluster.runTo(8_000_000);
    // The controller fenced b3 and published b1 as leader at epoch 0; b1 did not act on it.
    expect(controllerState(cluster)?.leader).toBe('b1');
    expect(stateOf(cluster, 'b1').role).toBe('none');
  });

  it('follows the leader the registration elected, in a newer epoch', () => {
    const cluster = scriptedRestart();
    cluster.runTo(12_000_000);
    const state = controllerState(cluster);
    expect(state?.leader).toBe('b2');
    expect(state?.leaderEpoch).toBeGreaterThan(0);
    expect(stateOf(cluster, 'b1')).toEqual({ role: 'follower', leaderEpoch: state?.leaderEpoch });
  });
});
