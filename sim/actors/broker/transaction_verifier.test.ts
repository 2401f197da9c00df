/**
 * Goal: pin what each waiter of a KIP-890 verification receives when the verification dies in
 * transport, and what it receives from a coordinator's answer. A Produce gets the produce
 * conversion (ReplicaManager.postVerificationCallback: NETWORK_EXCEPTION and
 * CONCURRENT_TRANSACTIONS as NOT_ENOUGH_REPLICAS); a TxnOffsetCommit gets the error as
 * AddPartitionsToTxnManager hands it over (NETWORK_EXCEPTION, CONCURRENT_TRANSACTIONS,
 * PRODUCER_FENCED as INVALID_PRODUCER_EPOCH), which maybeConvertOffsetCommitError then converts
 * (KAFKA-16386 is the missing NETWORK_EXCEPTION case there). Method: a verifier on a fake context;
 * the connection to the coordinator resets, or the coordinator answers.
 */
import { describe, expect, it } from 'vitest';
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaErrorCode, KafkaMessage } from '../protocol';
import { TransactionVerifier, type VerificationCaller } from './transaction_verifier';

const COORDINATOR = 'b3' as NodeId;

/** A context that records what is sent and ignores timers. */
function fakeContext(): { ctx: ActorContext<KafkaMessage>; sent: KafkaMessage[] } {
  const sent: KafkaMessage[] = [];
  const ctx = {
    nodeId: 'b1' as NodeId,
    nowUs: () => 0,
    send: (_target: NodeId, payload: KafkaMessage) => sent.push(payload),
    setTimer: () => 1,
    cancelTimer: () => undefined,
    closeConnection: () => undefined,
    trace: () => undefined,
    observe: () => undefined,
  } as unknown as ActorContext<KafkaMessage>;
  return { ctx, sent };
}

const REQUEST = {
  topic: '__consumer_offsets',
  partition: 0,
  transactionalId: 'etl-1',
  transactionVersion: 0,
  batch: { producerId: 7, producerEpoch: 0 },
};

/** The error `caller` gets after a reset of the connection, or after `answer`. */
function errorAfter(caller: VerificationCaller, answer: KafkaErrorCode | 'reset'): KafkaErrorCode {
  const { ctx, sent } = fakeContext();
  const verifier = new TransactionVerifier();
  let received: KafkaErrorCode | undefined;
  verifier.verify(REQUEST, COORDINATOR, ctx, (error) => (received = error), caller);
  if (answer === 'reset') verifier.onConnectionReset(COORDINATOR, ctx);
  else {
    const request = sent[0] as Extract<KafkaMessage, { kind: 'AddPartitionsToTxn' }>;
    const results = [{ topic: REQUEST.topic, partition: 0, error: answer }];
    const response = { kind: 'AddPartitionsToTxnResponse', correlationId: request.correlationId };
    verifier.onResponse({ ...response, results } as never, ctx);
  }
  if (received === undefined) throw new Error('the verification was not answered');
  return received;
}

describe('TransactionVerifier: what each waiter gets', () => {
  it('after a reset: TxnOffsetCommit gets NETWORK_EXCEPTION, Produce NOT_ENOUGH_REPLICAS', () => {
    expect(errorAfter('offsets', 'reset')).toBe('NETWORK_EXCEPTION');
    expect(errorAfter('produce', 'reset')).toBe('NOT_ENOUGH_REPLICAS');
  });

  it("a TxnOffsetCommit gets the coordinator's answer, fencing as INVALID_PRODUCER_EPOCH", () => {
    expect(errorAfter('offsets', 'CONCURRENT_TRANSACTIONS')).toBe('CONCURRENT_TRANSACTIONS');
    expect(errorAfter('offsets', 'PRODUCER_FENCED')).toBe('INVALID_PRODUCER_EPOCH');
    expect(errorAfter('produce', 'CONCURRENT_TRANSACTIONS')).toBe('NOT_ENOUGH_REPLICAS');
  });

  it('near-miss: a verified partition is NONE for either waiter', () => {
    expect(errorAfter('offsets', 'NONE')).toBe('NONE');
    expect(errorAfter('produce', 'NONE')).toBe('NONE');
  });
});
