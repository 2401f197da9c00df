/**
 * The expectations of `scenarios/zombie-fencing.yaml` for one run, shared by the fast test (one
 * seed) and the sweep (`zombie_fencing.sweep.test.ts`): each broken expectation as one line. They
 * are read from the history (what A and B saw) and the oracle (what the logs hold and which
 * epochs the coordinator granted), never from the checker alone.
 */
import type { RunResult } from '../../sim/runner';
import { isFencingError } from '../../sim/actors';
import {
  oracleRecords,
  deliveredRecords,
  initGranted,
  readOps,
  valuesSentBy,
} from './history_queries';

/** The run is clean, and A was told it is fenced. */
function outcomeProblems(run: RunResult): string[] {
  const problems: string[] = [];
  const { report, history } = run;
  if (report.outcome !== 'pass') problems.push(`outcome ${report.outcome}`);
  if (report.check.anomalyTypes.length > 0) {
    problems.push(`anomalies ${report.check.anomalyTypes.join(',')}`);
  }
  const fenced = history.some(
    (op) => op.client === 'A' && op.type !== 'invoke' && isFencingError(op.error),
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
    const records = oracleRecords(partition);
    records.forEach((record, index) => {
      const ofA = record.producerId === a.producerId && record.producerEpoch === zombieEpoch;
      if (!ofA || record.control !== undefined) return;
      recordsOfA += 1;
      const where = `${partition.topic}-${partition.partition}@${record.offset}`;
      const marker = records
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

/** Every broken expectation of one run, each prefixed with its seed. */
export function fencingProblems(seed: string, run: RunResult): string[] {
  const found = [
    ...outcomeProblems(run),
    ...epochProblems(run),
    ...abortProblems(run),
    ...visibilityProblems(run),
  ];
  return found.map((problem) => `seed ${seed}: ${problem}`);
}
