/**
 * Goal: the bundled transactional-id-expiration scenario shows transactional.id expiration as
 * Kafka's TransactionStateManager.removeExpiredTransactionalIds does it: at the first cleanup run
 * (every `transaction.remove.expired.transaction.cleanup.interval.ms`, 1 s) at least
 * `transactional.id.expiration.ms` (5 s) after the id's last update, and only in Empty,
 * CompleteCommit or CompleteAbort (TransactionState.isExpirationAllowed), never while Ongoing; the
 * removal is a tombstone in `__transaction_state`, and the next InitProducerId for the id gets a
 * fresh producerId. Method: run seed 1 with the world driven by the test (fixed 1 ms network
 * delay, so times are exact), collect the coordinator's TransactionalIdExpired observations and
 * its state transitions, pair each client's InitProducerId with its answer, and read the
 * `__transaction_state` partitions at the end; then run it through the runner and check its
 * history again with the oracle's expirations removed (the idle producer's error is then flagged).
 */
import { describe, expect, it } from 'vitest';
import type { KafkaMessage, KafkaObservation } from '../../sim/actors';
import { checkHistory } from '../../sim/checker';
import { runScenario } from '../../sim/runner';
import { buildWorld } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';

/** Runs seed 1, with Kafka's default expiration (7 days) when `kafkaDefault` is set. */
function observe(kafkaDefault = false) {
  const scenario = loadScenario('scenarios/transactional-id-expiration.yaml');
  const broker = kafkaDefault
    ? { ...scenario.broker, transactionalIdExpirationMs: 604_800_000 }
    : scenario.broker;
  const world = buildWorld({ ...scenario, broker }, { seed: '1' });
  const events: string[] = [];
  const checker = world.sim.stateObserver;
  world.sim.stateObserver = (stamped) => {
    checker?.(stamped);
    const { timeUs } = stamped;
    const observation = stamped.observation as KafkaObservation;
    if (observation.kind === 'TransactionalIdExpired') {
      const { transactionalId, producerId, state } = observation.view;
      events.push(`${timeUs} expired ${transactionalId} pid ${producerId} in ${state}`);
    }
    if (observation.kind === 'TransactionStateTransition' && observation.to === 'CompleteCommit') {
      events.push(`${timeUs} ${observation.view.transactionalId} CompleteCommit`);
    }
  };
  const inits: string[] = [];
  const refusals: string[] = [];
  world.sim.deliveryObserver = ({ timeUs, envelope }) => {
    const message = envelope.payload as KafkaMessage;
    const refused = 'error' in message && message.error !== 'NONE' && envelope.target === 'I';
    if (refused) refusals.push(`${timeUs} ${message.kind} ${String(message.error)}`);
    if (message.kind === 'InitProducerIdResponse') {
      const { error, producerId, producerEpoch } = message;
      inits.push(`${timeUs} ${envelope.target} ${error} pid ${producerId} epoch ${producerEpoch}`);
    }
  };
  world.sim.runUntil(25_000_000);
  const tombstones = world.brokers.flatMap(({ broker }) =>
    [...broker.replicaManager.replicas.values()]
      .filter((replica) => replica.role === 'leader')
      .flatMap((replica) => replica.log.log)
      .filter((batch) => batch.transactionLog?.value === null)
      .map((batch) => `${batch.transactionLog?.transactionalId} at ${batch.baseOffset}`),
  );
  return { events, inits, refusals, tombstones };
}

describe('transactional.id.expiration.ms (removeExpiredTransactionalIds)', () => {
  const { events, inits, refusals, tombstones } = observe();

  it('removes each idle id at the first run 5 s after its last update, never while open', () => {
    // tx-short completes at 0.525 s: the 6 s run removes it (the tombstone is durable 2 ms later).
    // tx-long is Ongoing from 0.51 s to its commit at 10.5 s, so the 6 to 10 s runs pass it by
    // although its last update is older than 5 s; it completes at 10.515 s and the 16 s run
    // removes it.
    expect(events).toEqual([
      '525000 tx-short CompleteCommit',
      '527000 tx-idle CompleteCommit',
      '6002000 expired tx-idle pid 0 in CompleteCommit',
      '6002000 expired tx-short pid 2000 in CompleteCommit',
      '10515000 tx-long CompleteCommit',
      '16002000 expired tx-long pid 1000 in CompleteCommit',
      '20025000 tx-long CompleteCommit',
    ]);
  });

  it('writes one tombstone per expired id to __transaction_state', () => {
    // Each id's log holds InitProducerId, Ongoing, PrepareCommit, CompleteCommit, then the
    // tombstone; tx-long's then continues with N's records.
    expect(tombstones.sort()).toEqual(['tx-idle at 4', 'tx-long at 4', 'tx-short at 4']);
  });

  it('gives a new instance of an expired id a fresh producerId at epoch 0', () => {
    expect(inits).toEqual([
      '506000 S NONE pid 2000 epoch 0',
      '506000 L NONE pid 1000 epoch 0',
      '506000 I NONE pid 0 epoch 0',
      '20006000 N NONE pid 1001 epoch 0',
    ]);
  });

  it('answers the idle producer of an expired id INVALID_PRODUCER_ID_MAPPING', () => {
    // I's second transaction starts at 7.52 s, after tx-idle expired at 6 s: the partition
    // leader's AddPartitionsToTxn for it (KIP-890 part 2) and then I's EndTxn(abort) find no
    // transactional.id at the coordinator. The fatal-txn-error checker does not count it (the
    // run passes): the coordinator expired that producerId.
    expect(refusals).toEqual([
      '7524000 ProduceResponse INVALID_PRODUCER_ID_MAPPING',
      '7532000 EndTxnResponse INVALID_PRODUCER_ID_MAPPING',
    ]);
  });

  it('keeps the id and bumps its epoch under the same producerId without expiration', () => {
    const kept = observe(true);
    expect(kept.events.filter((line) => line.includes('expired'))).toEqual([]);
    expect(kept.tombstones).toEqual([]);
    // TV2: the commit bumped tx-long to epoch 1; the new instance's InitProducerId bumps it to 2.
    expect(kept.inits.at(-1)).toBe('20006000 N NONE pid 1000 epoch 2');
  });

  it('passes end to end, and fatal-txn-error fires without the expirations in the oracle', () => {
    const scenario = loadScenario('scenarios/transactional-id-expiration.yaml');
    const run = runScenario(scenario, { seed: '1', messageLog: false });
    expect(run.report.outcome).toBe('pass');
    expect(run.oracle.transactionalIdExpirations?.map((e) => e.transactionalId)).toEqual([
      'tx-idle',
      'tx-short',
      'tx-long',
    ]);
    const { transactionalIdExpirations: _dropped, ...blind } = run.oracle;
    const flagged = checkHistory(run.history, blind).anomalies.filter(
      (anomaly) => anomaly.kind === 'fatal-txn-error',
    );
    expect(flagged.map((anomaly) => `${anomaly.client} ${anomaly.timeUs}`)).toEqual(['I 7532000']);
  });
});
