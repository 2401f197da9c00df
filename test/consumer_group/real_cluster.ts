/**
 * A real cluster for end-to-end group cases: a controller and three brokers running the group
 * coordinator on `__consumer_offsets` and the transaction coordinator on `__transaction_state`
 * (3 partitions each, replication factor 3, min ISR 2), a data topic `in` with two partitions,
 * and {@link GroupClient} nodes whose consumers and producers talk to them through a real
 * ClientMetadata cache. The network delay is fixed at 1 ms.
 */
import {
  Broker,
  ClusterMetadata,
  Controller,
  CONTROLLER_ID,
  type GroupSummary,
} from '../../sim/actors';
import { Simulation, nodeId } from '../../sim/kernel';
import { INTERNAL_PARTITIONS, newBroker } from '../groups/harness';
import { DELAY_US, GroupClient, type ClientOptions } from './group_harness';

/** Partitions of each internal topic. */

/** The cluster and its clients. */
export class RealGroupWorld {
  readonly sim = new Simulation({
    seed: 'consumer-group-e2e',
    network: { delayUsMin: DELAY_US, delayUsMax: DELAY_US },
    eventsMax: 5_000_000,
    eventsQueuedMax: 100_000,
    recordEventLog: false,
  });
  readonly metadata = new ClusterMetadata(
    3,
    [{ name: 'in', partitions: 2, replicationFactor: 3 }],
    { numPartitions: INTERNAL_PARTITIONS, replicationFactor: 3, minInsyncReplicas: 2 },
    { numPartitions: INTERNAL_PARTITIONS, replicationFactor: 3 },
  );
  readonly brokers = new Map<string, Broker>();

  constructor() {
    const controller = new Controller(this.metadata.brokers, this.metadata.initialStates(), {
      brokerSessionTimeoutMs: 6000,
      uncleanLeaderElectionEnable: false,
    });
    this.sim.addNode(nodeId(CONTROLLER_ID), controller);
    for (const id of this.metadata.brokers) {
      const broker = newBroker(id, this.metadata);
      this.brokers.set(id, broker);
      this.sim.addNode(id, broker);
    }
  }

  /** Adds a client node using this cluster. */
  client(name: string, options: Omit<ClientOptions, 'cluster'>): GroupClient {
    const client = new GroupClient({ ...options, cluster: this.metadata });
    this.sim.addNode(nodeId(name), client);
    return client;
  }

  /** The group as its coordinator holds it. */
  group(groupId: string): GroupSummary | undefined {
    for (const broker of this.brokers.values()) {
      const found = broker.groupCoordinator.groups().find((each) => each.groupId === groupId);
      if (found !== undefined) return found;
    }
    return undefined;
  }

  at(atUs: number, action: () => void): void {
    this.sim.schedule(atUs, 'test step', action);
  }

  runTo(stopUs: number): void {
    this.sim.runUntil(stopUs);
  }
}
