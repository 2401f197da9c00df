/**
 * Goal: show that Kafka's fencing protects exactly-once in `scenarios/zombie-fencing.yaml`:
 * instance A pauses past its transaction.timeout.ms, the coordinator aborts its transaction with an
 * epoch bump (TransactionCoordinator.abortTimedOutTransactions), instance B initializes with the
 * same transactional.id (TransactionCoordinator.handleInitProducerId), and A's late requests are
 * fenced (KIP-588; TransactionManager), so none of A's records becomes visible. Method: sweep seeds
 * (`sweepSeeds('1..200')`, widened by SIM_SEEDS); for each run collect every broken expectation as
 * a line naming the seed, and assert the list is empty at the end, so one failure shows all failing
 * seeds. The expectations are read from the history (what A and B saw) and the oracle (what the
 * logs hold and which epochs the coordinator granted), never from the checker alone.
 */
import { describe, expect, it } from 'vitest';
import { runScenario, type RunResult } from '../../sim/runner/run';
import { loadScenario } from '../../scenarios';
import { sweepSeeds } from '../seed_range';
import { deliveredRecords, initGranted, readOps, valuesSentBy } from './history_queries';

const FENCING_ERRORS = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH']);

/** The run is clean, and A was told it is fenced. */
function outcomeProblems(run: RunResult): string[] {
  const problems: string[] = [];
  const { report, history } = run;
  if (report.outcome !== 'pass') problems.push(`outcome ${report.outcome}`);
  if (report.check.anomalyTypes.length > 0) {
    problems.push(`anomalies ${report.check.anomalyTypes.join(',')}`);
  }
  const fenced = history.some(
    (op) => op.client === 'A' && op.type !== 'invoke' && FENCING_ERRORS.has(op.error ?? ''),
  );
  if (!fenced) problems.push('A never completed an op with a fencing error');
  return problems;
}

/**
 * Epochs, on one producerId: A initializes at e; under transaction version 2 each of its commits
 * bumps the epoch (KIP-890 part 2), so A holds z when it pauses (z = e under TV0/TV1); the timeout
 * abort bumps to z + 1 (TransactionCoordinator.abortTimedOutTransactions, one bump since
 * KAFKA-19367) and B's InitProducerId gets z + 2 (TransactionCoordinator.handleInitProducerId). The
 * oracle's grants say the same.
 */
function epochProblems(run: RunResult): string[] {
  const a = initGranted(run.history, 'A');
  const b = initGranted(run.history, 'B');
  if (a === undefined || b === undefined) return ['A or B never initialized'];
  const problems: string[] = [];
  if (b.producerId !== a.producerId) {
    problems.push(`B producerId ${b.producerId} != A producerId ${a.producerId}`);
  }
  const grants = run.oracle.epochGrants;
  const fence = grants.findIndex((grant) => grant.reason === 'timeout');
  const zombie = (grants[fence]?.producerEpoch ?? 0) - 1;
  const expected = [
    `init:${a.producerEpoch}`,
    ...Array.from({ length: zombie - a.producerEpoch }, (_, i) => `end:${a.producerEpoch + i + 1}`),
    `timeout:${zombie + 1}`,
    `init:${zombie + 2}`,
  ];
  const seen = grants.slice(0, fence + 2).map((grant) => `${grant.reason}:${grant.producerEpoch}`);
  if (fence < 0 || JSON.stringify(seen) !== JSON.stringify(expected)) {
    problems.push(`grants ${seen.join(' ')}, expected ${expected.join(' ')}`);
  }
  if (b.producerEpoch !== zombie + 2) {
    problems.push(`B epoch ${b.producerEpoch} != A's epoch at the pause ${zombie} + 2`);
  }
  return problems;
}

/**
 * Every record of A's identity at the pause is aborted: the next marker of that producerId after
 * it in its partition is an ABORT, and it was appended before the timeout fence (no late zombie
 * append).
 */
function abortProblems(run: RunResult): string[] {
  const a = initGranted(run.history, 'A');
  if (a === undefined) return ['A never initialized'];
  const fence = run.oracle.epochGrants.find((grant) => grant.reason === 'timeout');
  const zombieEpoch = (fence?.producerEpoch ?? 0) - 1;
  const problems: string[] = [];
  let recordsOfA = 0;
  for (const partition of run.oracle.partitions) {
    partition.records.forEach((record, index) => {
      const ofA = record.producerId === a.producerId && record.producerEpoch === zombieEpoch;
      if (!ofA || record.control !== undefined) return;
      recordsOfA += 1;
      const where = `${partition.topic}-${partition.partition}@${record.offset}`;
      const marker = partition.records
        .slice(index + 1)
        .find((later) => later.control !== undefined && later.producerId === a.producerId);
      if (marker?.control !== 'ABORT') {
        problems.push(`${where}: next marker is ${marker?.control ?? 'missing'}`);
      }
      if (fence === undefined || record.appendUs >= fence.timeUs) {
        problems.push(`${where}: appended at ${record.appendUs}us, after the fence`);
      }
    });
  }
  if (recordsOfA === 0) problems.push('A wrote no record before its pause');
  return problems;
}

/** No value A sent reaches a read_committed reader: the final read nor the polling reader. */
function visibilityProblems(run: RunResult): string[] {
  const sentByA = valuesSentBy(run.history, 'A');
  const committedReads = [
    ...readOps(run.history, { f: 'final-read', isolationLevel: 'read_committed' }),
    ...readOps(run.history, { f: 'poll', client: 'reader' }),
  ];
  return deliveredRecords(committedReads)
    .filter((record) => sentByA.has(record.value))
    .map((record) => `A's value ${record.value} read at offset ${record.offset}`);
}

describe('zombie-fencing.yaml', () => {
  it('fences A on every seed: clean check, epochs e / e+1 / e+2, A aborted and invisible', () => {
    const scenario = loadScenario('scenarios/zombie-fencing.yaml');
    const seeds = sweepSeeds('1..200');
    const problems: string[] = [];
    for (const seed of seeds) {
      const run = runScenario(scenario, { seed });
      const found = [
        ...outcomeProblems(run),
        ...epochProblems(run),
        ...abortProblems(run),
        ...visibilityProblems(run),
      ];
      problems.push(...found.map((problem) => `seed ${seed}: ${problem}`));
    }
    expect(problems).toEqual([]);
  });
});
