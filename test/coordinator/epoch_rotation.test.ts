/**
 * Goal: pin producerId rotation at epoch exhaustion under transaction version 2 (KIP-890 part 2)
 * and the three historical bugs around it. Kafka's producerEpoch is an int16: at 32766
 * (TransactionMetadata.isEpochExhausted) a bumping EndTxn writes Prepare* at 32767 with a
 * nextProducerId and CompleteCommit/Abort rotates to it at epoch 0 (prepareComplete); a retried
 * EndTxn whose answer was lost is recognised by previousProducerId
 * (TransactionCoordinator.endTransaction, retryOnOverflow). KAFKA-20310: previousProducerId and
 * nextProducerId not written to the log (a failover forgets the rotation); KAFKA-20357:
 * lastProducerEpoch not written (a retried InitProducerId after a failover is fenced);
 * KAFKA-20090: an abort by epoch fence never rotates (the epoch reaches 32767 with a client on
 * it). Method: ./harness; the exhausted epoch is set on the in-memory metadata before the first
 * write of the transaction, so it is in the log from there on (a shortcut of a unit test only:
 * no client can pick its epoch, the scenarios reach it by committing 32,767 transactions).
 */
import { describe, expect, it } from 'vitest';
import type { CoordinatorSettings } from '../../sim/actors';
import { CoordinatorHarness, LOG_WRITE_US, T0, TXN_ID, ongoingAt } from './harness';

const V2 = { transactionVersion: 2 } as const;

/** A TV2 coordinator whose transaction on T0 is Ongoing at `epoch` under producerId 0. */
function ongoing(epoch: number, settings: Partial<CoordinatorSettings> = {}): CoordinatorHarness {
  const h = ongoingAt(epoch, settings);
  expect(h.state()).toEqual({ state: 'Ongoing', pendingState: null, producerEpoch: epoch });
  return h;
}

function identity(h: CoordinatorHarness): { producerId: number; producerEpoch: number } {
  const metadata = h.coordinator.metadataOf(TXN_ID);
  if (metadata === undefined) throw new Error('no metadata');
  return { producerId: metadata.producerId, producerEpoch: metadata.producerEpoch };
}

describe('EndTxn at the exhausted epoch (retryOnOverflow)', () => {
  it('answers a retried EndTxn after the rotation with the new identity', () => {
    const h = ongoing(32_766);
    const first = h.endTxn(32_766, true, V2);
    h.advanceBy(LOG_WRITE_US);
    expect(first).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
    // The producer starts its next transaction under the new id while the markers go out: retry
    // (the Complete transition is pending, KAFKA-18660), not INVALID_PRODUCER_ID_MAPPING.
    expect(h.addPartitions(0, [T0], { producerId: 1 }).error).toBe('CONCURRENT_TRANSACTIONS');
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    expect(identity(h)).toEqual({ producerId: 1, producerEpoch: 0 });
    // The answer was lost: the producer retries with the identity it sent.
    expect(h.endTxn(32_766, true, V2)).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
    // A retry of the other outcome, or from an older epoch, is not one.
    expect(h.endTxn(32_766, false, V2).error).toBe('INVALID_TXN_STATE');
    expect(h.endTxn(32_765, true, V2).error).toBe('INVALID_PRODUCER_ID_MAPPING');
    // The new identity starts the next transaction.
    expect(h.addPartitions(0, [T0], { producerId: 1 }).error).toBeUndefined();
    h.advanceBy(LOG_WRITE_US);
    expect(h.state()).toMatchObject({ state: 'Ongoing', producerEpoch: 0 });
  });

  it('refuses a bump past Short.MAX_VALUE instead of granting 32768', () => {
    const h = ongoing(32_767);
    expect(h.endTxn(32_767, true, V2).error).toBe('UNKNOWN_SERVER_ERROR');
    h.advanceBy(LOG_WRITE_US);
    expect(h.state()).toMatchObject({ state: 'Ongoing', producerEpoch: 32_767 });
    expect(h.grants().every((grant) => grant.producerEpoch <= 32_767)).toBe(true);
  });
});

describe('KAFKA-20310: previousProducerId and nextProducerId in __transaction_state', () => {
  /** Crashes the coordinator once PrepareCommit at 32767 is durable, before the markers land. */
  function failoverInPrepareCommit(settings: Partial<CoordinatorSettings>): CoordinatorHarness {
    const h = ongoing(32_766, settings);
    h.endTxn(32_766, true, V2);
    h.advanceBy(LOG_WRITE_US);
    h.crashAndRestart();
    expect(h.state()).toMatchObject({ state: 'PrepareCommit', producerEpoch: 32_767 });
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    return h;
  }

  it('fixed: the successor completes the rotation it read from the log', () => {
    const h = failoverInPrepareCommit({});
    expect(h.state().state).toBe('CompleteCommit');
    expect(identity(h)).toEqual({ producerId: 1, producerEpoch: 0 });
    expect(h.log.at(-2)?.value).toMatchObject({ nextProducerId: 1, previousProducerId: 0 });
  });

  it('bug: the successor completes at the exhausted epoch; the answered id is unknown', () => {
    const h = failoverInPrepareCommit({ rotationNotLogged: true });
    expect(h.state().state).toBe('CompleteCommit');
    expect(identity(h)).toEqual({ producerId: 0, producerEpoch: 32_767 });
    expect(h.log.at(-2)?.value).not.toHaveProperty('nextProducerId');
    // The producer was told producerId 1 at epoch 0.
    expect(h.addPartitions(0, [T0], { producerId: 1 }).error).toBe('INVALID_PRODUCER_ID_MAPPING');
  });
});

describe('KAFKA-20357: lastProducerEpoch in __transaction_state', () => {
  /** An exhausted Empty id rotated by InitProducerId(0, 32766); then a failover; then the retry. */
  function retryAfterFailover(settings: Partial<CoordinatorSettings>): {
    error?: string;
    producerId?: number;
    producerEpoch?: number;
  } {
    const h = ongoing(32_765, settings);
    h.endTxn(32_765, false, V2);
    h.advanceBy(LOG_WRITE_US);
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    expect(identity(h)).toEqual({ producerId: 0, producerEpoch: 32_766 });
    const first = h.initProducerId({ producerId: 0, producerEpoch: 32_766 });
    h.advanceBy(LOG_WRITE_US);
    expect(first).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
    h.crashAndRestart();
    // The answer was lost with the crash: the producer retries.
    const retry = h.initProducerId({ producerId: 0, producerEpoch: 32_766 });
    h.advanceBy(LOG_WRITE_US);
    return retry;
  }

  it('fixed: the retry gets the rotated identity again', () => {
    expect(retryAfterFailover({})).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
  });

  it('bug: the retry is fenced (lastProducerEpoch loaded as -1)', () => {
    expect(retryAfterFailover({ lastProducerEpochNotLogged: true }).error).toBe('PRODUCER_FENCED');
  });

  it('KAFKA-20310 alone fences it too: previousProducerId is not in the log', () => {
    expect(retryAfterFailover({ rotationNotLogged: true }).error).toBe('PRODUCER_FENCED');
  });
});

describe('KAFKA-20090: a timed-out transaction at the exhausted epoch', () => {
  /** Ongoing at 32766 past its timeout; the coordinator's scan fences and aborts it. */
  function timedOut(settings: Partial<CoordinatorSettings>): CoordinatorHarness {
    const h = ongoing(32_766, settings);
    h.advanceBy(61_000_000);
    h.answerMarkers('NONE');
    h.advanceBy(LOG_WRITE_US);
    expect(h.state().state).toBe('CompleteAbort');
    return h;
  }

  it('fixed: the fence abort rotates, and the producer retrying its abort gets the new id', () => {
    const h = timedOut({});
    expect(identity(h)).toEqual({ producerId: 1, producerEpoch: 0 });
    expect(h.endTxn(32_766, false, V2)).toEqual({ error: 'NONE', producerId: 1, producerEpoch: 0 });
  });

  it('bug: the abort stays at 32767, the producer is handed it and its next commit fails', () => {
    const h = timedOut({ noRotationOnFenceAbort: true });
    expect(identity(h)).toEqual({ producerId: 0, producerEpoch: 32_767 });
    const abort = h.endTxn(32_766, false, V2);
    expect(abort).toEqual({ error: 'NONE', producerId: 0, producerEpoch: 32_767 });
    h.addPartitions(32_767, [T0]);
    h.advanceBy(LOG_WRITE_US);
    expect(h.endTxn(32_767, true, V2).error).toBe('UNKNOWN_SERVER_ERROR');
  });
});
