/**
 * Goal: pin what `fatal-txn-error` counts. INVALID_TXN_STATE always; INVALID_PRODUCER_ID_MAPPING
 * only while the producer is alone on its transactional.id (a coordinator that forgot the
 * producerId it rotated to, KAFKA-20310, or refused the retry of its rotation), not after another
 * instance's InitProducerId, which may legitimately have rotated the id, nor after the
 * coordinator expired the id with that producerId (`transactional.id.expiration.ms`,
 * TransactionStateManager.removeExpiredTransactionalIds). PRODUCER_FENCED only when the epoch
 * that fenced it was granted by an InitProducerId fencing its open transaction while it was alone
 * on the id (its own mid-transaction InitProducerId, confluentinc/librdkafka#3575), not after a
 * transaction timeout nor another instance's init; or after its own InitProducerId bump when no
 * fence or timeout abort of the id and no other instance exists (KAFKA-20357). NETWORK_EXCEPTION,
 * a transport error every client retries, when it ends a transaction (the 3.7 Java client's
 * TxnOffsetCommitHandler, KAFKA-16386), not when it ends an init. Method: hand-built histories
 * through checkHistory with an empty oracle, or one that lists an expiration or epoch grants.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../sim/checker';
import type { EpochGrant, Oracle } from '../../sim/history';
import { historyOf, oracleOf, record, txn, type OpDraft } from './builders';

/** An InitProducerId of `transactionalId` by `process` at `atUs`. */
function init(process: string, transactionalId: string, atUs: number): OpDraft[] {
  const client = process.split('#')[0] ?? process;
  const base = { process, client, f: 'init' as const, value: { transactionalId } };
  return [
    { ...base, timeUs: atUs, type: 'invoke' },
    { ...base, timeUs: atUs + 5, type: 'ok' },
  ] as OpDraft[];
}

/** A failed transaction of client A whose completion carries `error`. */
function failedTxn(error: string, atUs: number): OpDraft[] {
  const [invoke, done] = txn({
    client: 'A',
    transactionalId: 'tx',
    commit: true,
    sends: [record(0, 1)],
    atUs,
    type: 'info',
    producerId: 0,
    producerEpoch: 32_766,
  });
  return [invoke as OpDraft, { ...(done as OpDraft), error } as OpDraft];
}

function fatalKinds(
  history: ReturnType<typeof historyOf>,
  transactionalIdExpirations: Oracle['transactionalIdExpirations'] = [],
): string[] {
  return checkHistory(history, { ...oracleOf({}), transactionalIdExpirations })
    .anomalies.filter((anomaly) => anomaly.kind === 'fatal-txn-error')
    .map((anomaly) => anomaly.message);
}

/** A power loss at 60 µs that cut a __transaction_state record of tx. */
const cut = {
  timeUs: 60,
  topic: '__transaction_state',
  partition: 12,
  broker: 'b2',
  toOffset: 3,
  reason: 'power-loss' as const,
  removed: [],
  transactionalIds: ['tx'],
};

describe('fatal-txn-error', () => {
  it('counts INVALID_PRODUCER_ID_MAPPING to a producer alone on its transactional.id', () => {
    const messages = fatalKinds(
      historyOf(init('A#0', 'tx', 0), failedTxn('INVALID_PRODUCER_ID_MAPPING', 100)),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('INVALID_PRODUCER_ID_MAPPING');
  });

  it('near-miss: not after another instance initialized the same transactional.id', () => {
    const history = historyOf(
      init('A#0', 'tx', 0),
      init('B#0', 'tx', 50),
      failedTxn('INVALID_PRODUCER_ID_MAPPING', 100),
    );
    expect(fatalKinds(history)).toEqual([]);
  });

  it('counts a transaction ended by NETWORK_EXCEPTION (KAFKA-16386)', () => {
    const messages = fatalKinds(
      historyOf(init('A#0', 'tx', 0), failedTxn('NETWORK_EXCEPTION', 100)),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('NETWORK_EXCEPTION');
  });

  it('near-miss: not an init that ended with NETWORK_EXCEPTION, nor a retriable timeout', () => {
    const [invoke, done] = init('A#0', 'tx', 0);
    const failedInit = [invoke, { ...done, type: 'fail', error: 'NETWORK_EXCEPTION' }] as OpDraft[];
    expect(fatalKinds(historyOf(failedInit))).toEqual([]);
    expect(
      fatalKinds(historyOf(init('A#0', 'tx', 0), failedTxn('REQUEST_TIMED_OUT', 100))),
    ).toEqual([]);
  });

  it('still counts INVALID_TXN_STATE with another instance around', () => {
    const history = historyOf(
      init('A#0', 'tx', 0),
      init('B#0', 'tx', 50),
      failedTxn('INVALID_TXN_STATE', 100),
    );
    expect(fatalKinds(history)).toHaveLength(1);
  });

  it('near-miss: not after the coordinator expired the id with that producerId', () => {
    const history = historyOf(init('A#0', 'tx', 0), failedTxn('INVALID_PRODUCER_ID_MAPPING', 100));
    const expired = { transactionalId: 'tx', producerId: 0 };
    expect(fatalKinds(history, [{ ...expired, timeUs: 50 }])).toEqual([]);
    // An expiration after the error, or of another producerId, does not explain it.
    expect(fatalKinds(history, [{ ...expired, timeUs: 200 }])).toHaveLength(1);
    expect(fatalKinds(history, [{ ...expired, producerId: 7, timeUs: 50 }])).toHaveLength(1);
  });

  it('counts PRODUCER_FENCED by a fence of its own open transaction, alone on the id', () => {
    const history = historyOf(init('A#0', 'tx', 0), failedTxn('PRODUCER_FENCED', 100));
    const fence = { transactionalId: 'tx', producerId: 0, producerEpoch: 1, timeUs: 50 };
    const kinds = (grants: EpochGrant[]): string[] =>
      checkHistory(history, oracleOf({ epochGrants: grants }))
        .anomalies.filter((anomaly) => anomaly.kind === 'fatal-txn-error')
        .map((anomaly) => anomaly.message);
    const messages = kinds([{ ...fence, reason: 'fence' }]);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('its own InitProducerId fenced its open transaction');
    // Near-misses: a transaction timeout's fence, a fence after the error, no grant at all.
    expect(kinds([{ ...fence, reason: 'timeout' }])).toEqual([]);
    expect(kinds([{ ...fence, reason: 'fence', timeUs: 200 }])).toEqual([]);
    expect(kinds([])).toEqual([]);
  });

  it('near-miss: not PRODUCER_FENCED after another instance initialized the id', () => {
    const history = historyOf(
      init('A#0', 'tx', 0),
      init('B#0', 'tx', 40),
      failedTxn('PRODUCER_FENCED', 100),
    );
    const fence = { transactionalId: 'tx', producerId: 0, producerEpoch: 1, timeUs: 50 };
    const oracle = oracleOf({ epochGrants: [{ ...fence, reason: 'fence' }] });
    const fatal = checkHistory(history, oracle).anomalies.filter(
      (anomaly) => anomaly.kind === 'fatal-txn-error',
    );
    expect(fatal).toEqual([]);
  });

  it('counts PRODUCER_FENCED after its own bump, alone and fenced by no one (KAFKA-20357)', () => {
    const history = historyOf(init('A#0', 'tx', 0), failedTxn('PRODUCER_FENCED', 100));
    const bump = { transactionalId: 'tx', producerId: 0, producerEpoch: 32_767, timeUs: 50 };
    const found = (grants: EpochGrant[], oracle: Partial<Oracle> = {}) =>
      checkHistory(history, { ...oracleOf({ epochGrants: grants }), ...oracle })
        .anomalies.filter((anomaly) => anomaly.kind === 'fatal-txn-error')
        .map((anomaly) => anomaly.classification);
    expect(found([{ ...bump, reason: 'init' }])).toEqual(['fenced-after-own-bump']);
    // Near-misses: a timeout abort or a fence of the id, even one written after the client heard
    // of it; a bump after the error, or one not above the epoch the transaction ran at.
    const timeout = { ...bump, producerEpoch: 32_767, timeUs: 150, reason: 'timeout' as const };
    expect(found([{ ...bump, reason: 'init' }, timeout])).toEqual([]);
    expect(
      found([
        { ...bump, reason: 'init' },
        { ...timeout, reason: 'fence' },
      ]),
    ).toEqual([]);
    expect(found([{ ...bump, reason: 'init', timeUs: 120 }])).toEqual([]);
    expect(found([{ ...bump, reason: 'init', producerEpoch: 32_766 }])).toEqual([]);
    // Another instance of the id: its InitProducerId may have fenced A.
    const shared = historyOf(
      init('A#0', 'tx', 0),
      init('B#0', 'tx', 40),
      failedTxn('PRODUCER_FENCED', 100),
    );
    const oracle = oracleOf({ epochGrants: [{ ...bump, reason: 'init' }] });
    expect(checkHistory(shared, oracle).anomalies).toEqual([]);
    // A __transaction_state truncation that removed a record of tx: data loss, classified apart.
    expect(found([{ ...bump, reason: 'init' }], { truncations: [cut] })).toEqual([
      'transaction-log-truncated',
    ]);
  });

  it('classifies each by its error, and an unknown producerId after a lost record apart', () => {
    const classes = (history: ReturnType<typeof historyOf>, oracle: Oracle): unknown[] =>
      checkHistory(history, oracle)
        .anomalies.filter((anomaly) => anomaly.kind === 'fatal-txn-error')
        .map((anomaly) => anomaly.classification);
    const mapping = historyOf(init('A#0', 'tx', 0), failedTxn('INVALID_PRODUCER_ID_MAPPING', 100));
    const state = historyOf(init('A#0', 'tx', 0), failedTxn('INVALID_TXN_STATE', 100));
    expect(classes(mapping, oracleOf({}))).toEqual(['INVALID_PRODUCER_ID_MAPPING']);
    expect(classes(state, oracleOf({}))).toEqual(['INVALID_TXN_STATE']);
    // A __transaction_state truncation that removed a record of tx before the error.
    const lost = { ...oracleOf({}), truncations: [cut] };
    expect(classes(mapping, lost)).toEqual(['transaction-log-truncated']);
    // It does not excuse another error, another id, or an error before it.
    expect(classes(state, lost)).toEqual(['INVALID_TXN_STATE']);
    const other = { ...oracleOf({}), truncations: [{ ...cut, transactionalIds: ['ty'] }] };
    expect(classes(mapping, other)).toEqual(['INVALID_PRODUCER_ID_MAPPING']);
    const later = { ...oracleOf({}), truncations: [{ ...cut, timeUs: 200 }] };
    expect(classes(mapping, later)).toEqual(['INVALID_PRODUCER_ID_MAPPING']);
  });
});
