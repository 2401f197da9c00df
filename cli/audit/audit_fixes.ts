/**
 * The candidate fixes of each anomaly kind, smallest first: configuration changes a user can
 * make in their own files (or a Kafka upgrade, last). The audit tries them in order and keeps
 * the first one verified to remove the kind; nothing here is taken on trust. Only settings that
 * swarm mode keeps are candidates (acks, idempotence, replication, ISR, elections, log flushing,
 * isolation, auto-commit, transaction verification, the Kafka version): the timeouts and
 * `max.in.flight.requests.per.connection` are drawn anew by every seed, so a change to them
 * could not be verified by a sweep.
 */
import type { AnomalyKind } from '../../sim/checker';
import type { AppRole, AuditApp, AuditInput, KafkaValue } from './audit_files';

/** One key set to one value, in the broker file or in every application file of a role. */
export interface Edit {
  readonly on: 'broker' | AppRole;
  readonly key: string;
  readonly value: KafkaValue;
}

/** A candidate: its edits and, optionally, a Kafka release to upgrade to. */
export interface Fix {
  readonly edits: readonly Edit[];
  readonly kafkaVersion?: string;
}

const ACKS_ALL: Edit = { on: 'producer', key: 'acks', value: 'all' };
const IDEMPOTENCE: Edit = { on: 'producer', key: 'enable.idempotence', value: true };
const CLEAN_ELECTIONS: Edit = { on: 'broker', key: 'unclean.leader.election.enable', value: false };
const MIN_ISR_2: Edit = { on: 'broker', key: 'min.insync.replicas', value: 2 };
const RF_3: Edit = { on: 'broker', key: 'default.replication.factor', value: 3 };
/** fsync after every message: what survives a power loss (Operations: OS Flush Management). */
const FLUSH_EACH_MESSAGE: Edit = { on: 'broker', key: 'log.flush.interval.messages', value: 1 };
const READ_COMMITTED: Edit = { on: 'consumer', key: 'isolation.level', value: 'read_committed' };
const PIPELINE_READ_COMMITTED: Edit = { ...READ_COMMITTED, on: 'pipeline' };
const NO_AUTO_COMMIT: Edit = { on: 'pipeline', key: 'enable.auto.commit', value: false };
const VERIFICATION: Edit = {
  on: 'broker',
  key: 'transaction.partition.verification.enable',
  value: true,
};

/** Replication and acknowledgement: what keeps an acknowledged write (Design: Replication). */
const DURABILITY: readonly Fix[] = [
  { edits: [ACKS_ALL] },
  { edits: [CLEAN_ELECTIONS] },
  { edits: [MIN_ISR_2] },
  // Last among single edits: it costs every write an fsync, where Kafka relies on replication.
  { edits: [FLUSH_EACH_MESSAGE] },
  { edits: [ACKS_ALL, MIN_ISR_2] },
  { edits: [RF_3, MIN_ISR_2] },
  { edits: [ACKS_ALL, CLEAN_ELECTIONS, MIN_ISR_2] },
  { edits: [ACKS_ALL, RF_3, MIN_ISR_2] },
  { edits: [ACKS_ALL, CLEAN_ELECTIONS, RF_3, MIN_ISR_2] },
];

/** Transaction verification (KIP-890 part 1), then transaction.version 2 (part 2, Kafka 4.0). */
const TRANSACTIONS: readonly Fix[] = [{ edits: [VERIFICATION] }];

/** Kafka releases to try last: the first with KIP-890 part 2, the first with ELR, the newest. */
const UPGRADES = ['4.0', '4.1', '4.5'] as const;

const VISIBILITY: readonly Fix[] = [
  { edits: [READ_COMMITTED] },
  { edits: [PIPELINE_READ_COMMITTED] },
  { edits: [READ_COMMITTED, PIPELINE_READ_COMMITTED] },
];

const PIPELINE: readonly Fix[] = [
  { edits: [PIPELINE_READ_COMMITTED] },
  { edits: [NO_AUTO_COMMIT] },
  { edits: [PIPELINE_READ_COMMITTED, NO_AUTO_COMMIT] },
];

const DUPLICATES: readonly Fix[] = [
  { edits: [ACKS_ALL] },
  { edits: [IDEMPOTENCE] },
  { edits: [ACKS_ALL, IDEMPOTENCE] },
];

const LOSS_KINDS: readonly AnomalyKind[] = [
  'lost-write',
  'vanished-read',
  'inconsistent-offsets',
  'nonmonotonic-poll',
  'poll-skip',
  'read-above-hw',
];

/** The candidate groups of a kind, most specific first. */
function groupsOf(kind: AnomalyKind): ReadonlyArray<readonly Fix[]> {
  if (LOSS_KINDS.includes(kind)) return [DURABILITY];
  switch (kind) {
    case 'duplicate':
      return [DUPLICATES, PIPELINE, DURABILITY];
    case 'epoch-bump-duplicate':
      return [];
    case 'aborted-read':
    case 'uncommitted-read':
      return [VISIBILITY, TRANSACTIONS, DURABILITY];
    case 'zombie-write':
    case 'torn-transaction':
    case 'hanging-transaction':
    case 'fatal-txn-error':
      return [TRANSACTIONS, DURABILITY];
    case 'eos-violation':
      return [PIPELINE, TRANSACTIONS, DURABILITY];
    default:
      return [];
  }
}

/** A fix as people write it: `acks=all (producer files)`, `--kafka-version 4.1`. */
export function fixText(fix: Fix): string {
  const edits = fix.edits.map((edit) => {
    const where = edit.on === 'broker' ? 'broker file' : `${edit.on} files`;
    return `${edit.key}=${String(edit.value)} (${where})`;
  });
  if (fix.kafkaVersion !== undefined) edits.push(`Kafka ${fix.kafkaVersion} (--kafka-version)`);
  return edits.join(', ');
}

/**
 * The candidates for `kind`, in the order tried: by number of edits, then the table's order;
 * Kafka upgrades newer than `kafkaVersion` last.
 * @example candidateFixes('lost-write', '3.9')[0] // { edits: [acks=all] }
 */
export function candidateFixes(kind: AnomalyKind, newerThan: (version: string) => boolean): Fix[] {
  const seen = new Set<string>();
  const fixes: Fix[] = [];
  for (const fix of groupsOf(kind).flat()) {
    if (seen.has(fixText(fix))) continue;
    seen.add(fixText(fix));
    fixes.push(fix);
  }
  fixes.sort((a, b) => a.edits.length - b.edits.length);
  const upgrades = UPGRADES.filter(newerThan).map((kafkaVersion) => ({ edits: [], kafkaVersion }));
  return kind === 'invariant' ? [] : [...fixes, ...upgrades];
}

/** The input with `fix` applied: each edit set in the broker file or every matching app. */
export function applyFix(input: AuditInput, fix: Fix): AuditInput {
  const set = <T extends { used: AuditApp['used'] }>(file: T, edits: readonly Edit[]): T => {
    if (edits.length === 0) return file;
    const used = new Map(file.used);
    for (const edit of edits) used.set(edit.key, { key: edit.key, value: edit.value, line: 0 });
    return { ...file, used };
  };
  const broker = set(
    input.broker,
    fix.edits.filter((edit) => edit.on === 'broker'),
  );
  const apps = input.apps.map((app) =>
    set(
      app,
      fix.edits.filter((edit) => edit.on === app.role),
    ),
  );
  return { broker, apps };
}
