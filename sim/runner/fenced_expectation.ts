/**
 * `expect.fenced: [X]`: X receives a fencing error. The expectation's premise is that X's next
 * request reaches a coordinator that has already granted a newer producerEpoch for X's
 * transactional.id. Under swarm mode the drawn faults can break that premise in two ways Kafka
 * permits, and the expectation is then said to be dropped, with why:
 *
 * - X stops first on a fatal error Kafka permits (an EndTxn that races the timeout abort,
 *   KAFKA-20785): X's records are aborted all the same.
 * - The coordinator forgot the newer epoch: the id's `__transaction_state` partition lost
 *   records (an unclean or last-known-leader election, a power loss) and the coordinator that
 *   loaded it holds an older epoch than it once granted. Kafka's fencing lasts only as long as
 *   the transaction log keeps the grant (TransactionStateManager loads the partition as it is);
 *   X's stale epoch may then be valid again, or be answered CONCURRENT_TRANSACTIONS for good
 *   behind a marker the partitions refuse (TransactionCoordinator.endTransaction).
 *
 * The safety checkers still judge everything X wrote; only this expectation is dropped.
 */
import { TRANSACTION_STATE_TOPIC, transactionStatePartitionFor } from '../actors';
import type { CheckResult } from '../checker';
import type { History, Oracle } from '../history';
import type { ScenarioConfig } from '../../scenarios';
import type { KindVerdict } from './guarantee_verdicts';
import type { ExpectationResult } from './report_types';
import type { SwarmParameters } from './swarm';

/** What the expectation is judged from (a part of the report input). */
export interface FencedExpectationInput {
  readonly scenario: ScenarioConfig;
  readonly check: CheckResult;
  readonly history: History;
  readonly oracle: Oracle;
  readonly swarm?: SwarmParameters;
}

/** The verdicts and fenced clients of the run. */
export interface FencedJudgement {
  readonly verdicts: readonly KindVerdict[];
  readonly fenced: readonly string[];
}

/**
 * The result of `expect.fenced` for one client.
 * @example fencedExpectation(input, judged, 'A') // { name: 'A is fenced', met: true, ... }
 */
export function fencedExpectation(
  input: FencedExpectationInput,
  judged: FencedJudgement,
  client: string,
): ExpectationResult {
  const name = `${client} is fenced`;
  if (judged.fenced.includes(client)) {
    return { name, met: true, detail: `${client} received a fencing error` };
  }
  if (input.swarm !== undefined) {
    const dropped = stoppedFirst(input, judged, client) ?? forgottenFence(input, client);
    if (dropped !== null) return { name, met: true, detail: `dropped under swarm: ${dropped}` };
  }
  return { name, met: false, detail: `${client} was never fenced` };
}

function stoppedFirst(
  input: FencedExpectationInput,
  judged: FencedJudgement,
  client: string,
): string | null {
  const fatal = judged.verdicts.find((verdict) => verdict.kind === 'fatal-txn-error');
  const stopped = input.check.anomalies.some(
    (anomaly) => anomaly.kind === 'fatal-txn-error' && anomaly.client === client,
  );
  if (fatal?.verdict !== 'permitted' || !stopped) return null;
  const why = fatal.permission?.id ?? 'kafka';
  return (
    `${client} stopped on a fatal error Kafka permits (${why}) ` +
    'before its commit could be fenced'
  );
}

/**
 * Why the coordinator no longer holds the epoch that fenced `client`, or null: a truncation of
 * the id's `__transaction_state` partition removed records, and the coordinator's entry at the
 * end of the run is below the highest epoch granted for its producerId.
 */
function forgottenFence(input: FencedExpectationInput, client: string): string | null {
  const transactionalId = transactionalIdOf(input.history, client);
  if (transactionalId === null) return null;
  const { oracle } = input;
  const held = oracle.coordinatorTransactions?.find(
    (entry) => entry.transactionalId === transactionalId,
  );
  if (held === undefined) return null;
  const granted = Math.max(
    -1,
    ...oracle.epochGrants
      .filter((grant) => grant.transactionalId === transactionalId)
      .filter((grant) => grant.producerId === held.producerId)
      .map((grant) => grant.producerEpoch),
  );
  if (held.producerEpoch >= granted) return null;
  const partition = transactionStatePartitionFor(
    transactionalId,
    input.scenario.broker.transactionStateLogNumPartitions,
  );
  const lost = (oracle.truncations ?? []).find(
    (truncation) =>
      truncation.topic === TRANSACTION_STATE_TOPIC &&
      truncation.partition === partition &&
      truncation.removed.length > 0,
  );
  if (lost === undefined) return null;
  return (
    `${TRANSACTION_STATE_TOPIC}-${partition} lost records (${lost.reason} truncation on ` +
    `${lost.broker} at ${lost.timeUs / 1e6} s), so coordinator ${held.coordinator} holds ` +
    `${transactionalId} at producerEpoch ${held.producerEpoch}, below the ${granted} it granted: ` +
    `the fence of ${client} was lost with the transaction log`
  );
}

function transactionalIdOf(history: History, client: string): string | null {
  for (const op of history) {
    if (op.client !== client || op.f !== 'init') continue;
    const value = op.value as { readonly transactionalId?: unknown } | undefined;
    if (typeof value?.transactionalId === 'string') return value.transactionalId;
  }
  return null;
}
