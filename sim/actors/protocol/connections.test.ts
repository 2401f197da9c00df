/**
 * Goal: pin which lane each Kafka kind travels on (`kafkaLaneMap`): a request and its response
 * share their connection's lane, the client sends the request; a kind only one connection
 * carries is on that connection's lane; a kind several carry (FindCoordinator: the producer's
 * and the consumer's) has a lane of its own; the controller channel's kinds are on the default
 * lane. Method: look the kinds up.
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

  it("leaves the controller channel's kinds on the default lane", () => {
    expect(kafkaLaneMap('BrokerHeartbeat')).toBeUndefined();
    expect(kafkaLaneMap('AlterPartitionResponse')).toBeUndefined();
    expect(kafkaLaneMap('ConnectionReset')).toBeUndefined();
  });
});
