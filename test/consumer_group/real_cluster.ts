/**
 * A real cluster for end-to-end group cases, on the shared harness (test/harness/cluster.ts): a
 * controller and three brokers running the group coordinator on `__consumer_offsets` and the
 * transaction coordinator on `__transaction_state` (3 partitions each, replication factor 3, min
 * ISR 2), a data topic `in` with two partitions, and {@link GroupClient} nodes whose consumers
 * and producers talk to them through a real ClientMetadata cache. The network delay is fixed at
 * 1 ms.
 */
import { TestCluster } from '../harness/cluster';
import { INTERNAL_PARTITIONS } from '../groups/harness';
import { GroupClient, type ClientOptions } from './group_harness';

/** The cluster and its clients. */
export class RealGroupWorld extends TestCluster {
  constructor() {
    super({
      seed: 'consumer-group-e2e',
      topics: [{ name: 'in', partitions: 2, replicationFactor: 3 }],
      internalTopics: { partitions: INTERNAL_PARTITIONS },
      broker: { coordinator: { transactionVersion: 0 } },
    });
  }

  /** Adds a client node using this cluster. */
  client(name: string, options: Omit<ClientOptions, 'cluster'>): GroupClient {
    return this.addNode(name, new GroupClient({ ...options, cluster: this.metadata }));
  }
}
