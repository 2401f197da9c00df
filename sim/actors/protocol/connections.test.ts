/**
 * Goal: pin which lane each Kafka kind travels on (`kafkaLaneMap`): a request and its response
 * share their connection's lane, the client sends the request; a kind only one connection
 * carries is on that connection's lane; a kind several carry (FindCoordinator: the producer's
 * and the consumer's) has a lane of its own; a broker's heartbeats and the controller's
 * PartitionChange share the heartbeat channel's lane; AlterPartition stays on the default lane.
 * Method: look the kinds up.
 */
import { describe, expect, it } from 'vitest';
import { kafkaLaneMap } from './connections';

describe('kafkaLaneMap', () => {
  it("puts a request and its response on their connection's lane", () => {
    expect(kafkaLaneMap('Produce')).toEqual({ connection: 'produce', fromClient: true });
    expect(kafkaLaneMap('ProduceResponse')).toEqual({ connection: 'produce', fromClient: false });
    expect(kafkaLaneMap('EndTxn')).toEqual(kafkaLaneMap('InitProducerId'));
    expect(kafkaLaneMap('JoinGroup')?.connection).toBe('group-coordinator');
    expect(kafkaLaneMap('ListOffsets')?.connection).toBe('consumer-fetch');
  });

  it('gives a kind several connections carry a lane of its own', () => {
    expect(kafkaLaneMap('FindCoordinator')).toEqual({
      connection: 'FindCoordinator',
      fromClient: true,
    });
    expect(kafkaLaneMap('FetchResponse')).toEqual({ connection: 'Fetch', fromClient: false });
    expect(kafkaLaneMap('AddPartitionsToTxn')?.connection).toBe('AddPartitionsToTxn');
    expect(kafkaLaneMap('WriteTxnMarkers')?.connection).toBe('WriteTxnMarkers');
  });

  it("puts the controller's pushes on the heartbeat channel, AlterPartition on the default", () => {
    const heartbeat = { connection: 'controller-heartbeat', fromClient: true };
    expect(kafkaLaneMap('BrokerHeartbeat')).toEqual(heartbeat);
    expect(kafkaLaneMap('BrokerHeartbeatResponse')).toEqual({ ...heartbeat, fromClient: false });
    expect(kafkaLaneMap('PartitionChange')).toEqual({ ...heartbeat, fromClient: false });
    expect(kafkaLaneMap('AlterPartitionResponse')).toBeUndefined();
    expect(kafkaLaneMap('ConnectionReset')).toBeUndefined();
  });
});
