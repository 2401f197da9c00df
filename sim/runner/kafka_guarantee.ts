/**
 * Kafka's guarantee under one configuration: from the resolved scenario (acks,
 * min.insync.replicas, unclean.leader.election.enable, enable.idempotence, transactional.id,
 * isolation.level, the application's policies, the protocol and bug switches) and from the faults
 * that actually happened in the run (the history's nemesis operations), which anomaly kinds
 * Kafka itself permits, each with the reason and the source (Kafka's documentation, a KIP or a
 * JIRA). Everything else a checker finds violates Kafka's guarantee. Scenario files therefore do
 * not list Kafka's own permissions; `expect.allowed` is only for what this model cannot know.
 *
 * Switches are read in one place ({@link switchesOf}), so a new way of naming them (a Kafka
 * version, bugs by JIRA id) changes one function.
 */
import type { AnomalyKind } from '../checker';
import type { History } from '../history';
import {
  electionsPlacement,
  leaderChangeScope,
  powerLossScope,
  uncleanElectionScope,
  writtenScope,
  type PermissionScope,
  type Placement,
  type ReplicationFacts,
} from './fault_scope';
import type { ScenarioConfig } from '../../scenarios';
import { idempotencePermissions, producersOf } from './idempotence_permissions';
import { coordinatorLoadPermission } from './coordinator_load_permission';

/** One thing Kafka permits under this configuration, and why. */
export interface Permission {
  /** A short stable name (`acks`, `power-loss`), used by sweep summaries to count seeds. */
  readonly id: string;
  readonly kinds: readonly AnomalyKind[];
  /** Per kind, the only classifications permitted; a kind absent here is permitted whatever. */
  readonly classifications?: Readonly<Partial<Record<AnomalyKind, readonly string[]>>>;
  /** What in the configuration or the run grants it, e.g. `acks=1 (P)`. */
  readonly setting: string;
  /** Completes "permitted by Kafka under this configuration, because …". */
  readonly because: string;
  /** Kafka's documentation section, KIP or JIRA. */
  readonly source: string;
  /**
   * The partitions it reaches (`fault_scope.ts`): a data-loss permission covers an anomaly only
   * where its fault acted. Absent: every partition.
   */
  readonly scope?: PermissionScope;
  /**
   * True when `scope` comes from the oracle's own record of the fault acting (a truncation or an
   * election), not from the configuration: the one kind of permission a bug switch keeps.
   */
  readonly placedByFault?: boolean;
}

/**
 * What acknowledged data being lost or truncated away lets a history show: the write is missing,
 * a read of it vanished, an offset held two values, a consumer's position went back (reset after
 * OFFSET_OUT_OF_RANGE) or skipped, a transaction lost part of its records, a pipeline input lost
 * its output, and a value read from a truncated copy was read again at its new offset. Control
 * records are lost the same way: a leader whose log lacks a COMMIT or ABORT marker (or the epoch
 * bump a fence wrote with it) holds that transaction open again, so the producer state it
 * rebuilds from its log accepts the fenced epoch (a zombie write, joined to the next commit of
 * that producerId), the last stable offset moves back (a read above it), an aborted
 * transaction's records can be committed by a later marker, or nothing ever closes it. A
 * coordinator whose `__transaction_state` lost a transactional.id's record no longer knows the
 * producerId it handed out, and answers INVALID_PRODUCER_ID_MAPPING, fatal to the producer.
 */
const DATA_LOSS_KINDS: readonly AnomalyKind[] = [
  'lost-write',
  'vanished-read',
  'inconsistent-offsets',
  'nonmonotonic-poll',
  'poll-skip',
  'torn-transaction',
  'eos-violation',
  'g1c',
  'duplicate',
  'zombie-write',
  'aborted-read',
  'uncommitted-read',
  'hanging-transaction',
  'invariant',
  'fatal-txn-error',
];

/**
 * A duplicate that data loss explains: one copy was read, then truncated, then re-sent. An
 * invariant only where the lost record explains it: a producer identity granted again after
 * `__transaction_state` lost the first grant's record (the next coordinator loads the shorter
 * log, TransactionStateManager.loadTransactionsForTxnTopicPartition, and grants from it).
 */
const DATA_LOSS_CLASSIFICATIONS = {
  duplicate: ['written-once', 'not-in-log'],
  invariant: ['grant-record-truncated'],
  // INVALID_PRODUCER_ID_MAPPING from a coordinator whose __transaction_state lost the id's record.
  'fatal-txn-error': ['transaction-log-truncated'],
} as const;

/** The switches the guarantee depends on, read from wherever the scenario keeps them. */
export interface GuaranteeSwitches {
  readonly transactionVersion: number;
  readonly leaderEpochTruncation: boolean;
  readonly highWatermarkStrictMinIsr: boolean;
  /** KIP-966's `eligible.leader.replicas.version`; 0 (no ELR) when the scenario has no key. */
  readonly eligibleLeaderReplicasVersion: number;
  /** Bug switches that are on, by the name reports print. */
  readonly bugs: readonly string[];
}

/** The one place switches are read (`protocol:`, `bugs:`). */
export function switchesOf(scenario: ScenarioConfig): GuaranteeSwitches {
  const { protocol } = scenario;
  // KAFKA-1211 on: truncation to the high watermark (no KIP-101 leader-epoch truncation);
  // KAFKA-15583 on: the pre-3.7 high-watermark rule. Every other switch is a bug of its own.
  const bugs = Object.entries(scenario.bugs)
    .filter(([id, on]) => on && id !== 'KAFKA-1211' && id !== 'KAFKA-15583')
    .map(([id]) => id);
  return {
    transactionVersion: protocol.transactionVersion,
    leaderEpochTruncation: !scenario.bugs['KAFKA-1211'],
    highWatermarkStrictMinIsr: !scenario.bugs['KAFKA-15583'],
    eligibleLeaderReplicasVersion: protocol.eligibleLeaderReplicasVersion,
    bugs,
  };
}

/**
 * The kinds each bug switch makes: an anomaly of one of these kinds is the bug's while the
 * switch is on (`bugCauses` in bug_causes.ts), and the permissions its mechanism overlaps do
 * not cover it (`withdrawBugKinds`).
 */
export const BUG_KINDS: Readonly<Record<string, readonly AnomalyKind[]>> = {
  'partition.skip.producer.epoch.check': ['zombie-write', 'torn-transaction', 'aborted-read'],
  'KAFKA-19690': ['fatal-txn-error'],
  'KAFKA-6119': ['torn-transaction', 'lost-write'],
  'KAFKA-9144': ['hanging-transaction', 'zombie-write'],
  'KAFKA-9666': ['hanging-transaction', 'fatal-txn-error'],
  'KAFKA-6361': ['inconsistent-offsets'],
  'KAFKA-7128': ['lost-write', 'vanished-read', 'inconsistent-offsets'],
  // A follower keeps a tail it was never sent through truncation for: the replicas diverge.
  'KAFKA-7395': ['inconsistent-offsets'],
  'KAFKA-20090': ['fatal-txn-error', 'hanging-transaction'],
  // The timed-out or fenced transaction cannot be aborted at 32767: it stays Ongoing for good.
  'KAFKA-19367': ['hanging-transaction'],
  // Offsets expired early: the group restarts from auto.offset.reset and reprocesses its input.
  'KAFKA-8069': ['eos-violation'],
  // Offsets of a live group expired: its next rebalance restarts from auto.offset.reset.
  'KAFKA-4682': ['eos-violation'],
  // A late marker of the previous transaction ends the next one at the same epoch.
  'KAFKA-19446': ['torn-transaction', 'aborted-read', 'invariant'],
  // A refused resend leaves the transaction in PrepareCommit/PrepareAbort.
  'KAFKA-19999': ['invariant', 'hanging-transaction'],
  // Markers dropped on KAFKA_STORAGE_ERROR: the committed records stay behind the LSO for good.
  'KAFKA-9749': ['lost-write', 'hanging-transaction'],
  // A retried initTransactions after its answer came in the background throws.
  'KAFKA-13412': ['fatal-txn-error'],
  // A TxnOffsetCommit answered NETWORK_EXCEPTION kills the 3.7 Java producer.
  'KAFKA-16386': ['fatal-txn-error'],
  'KAFKA-20310': ['fatal-txn-error'],
  'KAFKA-20357': ['fatal-txn-error'],
  // The client's epoch bump on OUT_OF_ORDER_SEQUENCE_NUMBER is Kafka's, the refused retry is not.
  'redpanda-data/redpanda#3039': ['epoch-bump-duplicate', 'duplicate'],
  // An expired producer's next sequence refused: librdkafka takes it as fatal.
  'redpanda-data/redpanda#22670': ['fatal-txn-error'],
  // The bump renumbers partitions that never asked for one: their lost-answer batches rewritten.
  'confluentinc/librdkafka#4953': ['epoch-bump-duplicate', 'duplicate'],
  // The mid-transaction InitProducerId fences the producer's own open transaction.
  'confluentinc/librdkafka#3575': ['fatal-txn-error'],
  // A later batch's OUT_OF_ORDER_SEQUENCE_NUMBER read as a rewound sequence: a fatal error.
  'confluentinc/librdkafka#4438': ['fatal-txn-error'],
  // New records acknowledged as duplicates of a written batch whose sequence was reused.
  'twmb/franz-go#1217': ['lost-write'],
  // The gap stalls the partition (a liveness problem, no anomaly kind): nothing to withdraw.
  'IBM/sarama#1661': [],
};

/**
 * Bugs whose mechanism acts only through one fault kind: without such a fault in the run the
 * switch changes nothing, so it neither causes an anomaly nor withdraws a permission (a release
 * before 2.5 keeps acks=1's lost-write permission when no log directory failed).
 */
const BUG_TRIGGER_FAULTS: Readonly<Record<string, readonly string[]>> = {
  // The coordinator drops markers only on KAFKA_STORAGE_ERROR, a failed log directory's answer.
  'KAFKA-9749': ['log-dir-failure'],
};

/**
 * The switched-on bugs that can have acted in a run with these faults.
 * @example bugsThatCanAct(['KAFKA-9749'], []) // []
 */
export function bugsThatCanAct(
  bugs: readonly string[],
  faults: readonly HappenedFault[],
): string[] {
  return bugs.filter((bug) => {
    const triggers = BUG_TRIGGER_FAULTS[bug];
    return triggers === undefined || faults.some((fault) => triggers.includes(fault.kind));
  });
}

/**
 * A switched-on bug's kinds leave the permissions its mechanism overlaps. That is every
 * permission the configuration alone grants (`idempotence-off`, `transaction-version-1`,
 * `end-txn-race`, `acks` ...): each covers its kinds wherever they are in the run, whoever made
 * them, so it would call the bug's own anomaly Kafka's (a single-batch dedup window's duplicate
 * next to a producer without idempotence, a stale-epoch append next to a late tv1 Produce). It
 * is not a permission placed by its fault's own event in the oracle (a power loss's or an
 * unclean election's truncation): there Kafka permits the kind on that partition with the bug
 * or without it, as it would in the fixed release, so the label "permitted by Kafka" stays
 * true. Per-producer placement would let the configuration's permissions keep theirs too; the
 * checker's anomaly groups carry partitions, not producers.
 */
function withdrawBugKinds(
  permissions: readonly Permission[],
  bugs: readonly string[],
): Permission[] {
  const bugKinds = new Set(bugs.flatMap((bug) => BUG_KINDS[bug] ?? []));
  return permissions
    .map((permission) =>
      permission.placedByFault === true
        ? permission
        : { ...permission, kinds: permission.kinds.filter((kind) => !bugKinds.has(kind)) },
    )
    .filter((permission) => permission.kinds.length > 0);
}

/** A fault the history says started, by kind and the nemesis's description. */
export interface HappenedFault {
  readonly kind: string;
  readonly description: string;
}

/** Faults that started during the run, in order. */
export function faultsThatHappened(history: History): HappenedFault[] {
  const faults: HappenedFault[] = [];
  for (const op of history) {
    if (op.f !== 'nemesis' || op.value.phase !== 'start') continue;
    faults.push({ kind: op.value.fault, description: op.value.description });
  }
  return faults;
}

/** A crash or coordinator failover that cut the power (`describeFault`'s wording). */
function isPowerLoss(fault: HappenedFault): boolean {
  return (
    (fault.kind === 'crash' || fault.kind === 'coordinator-failover') &&
    fault.description.startsWith('power loss')
  );
}

/**
 * Faults that make a request arrive late, after its client moved on: a message held or delayed
 * in the network, a duplicated one, or a broker paused with requests queued.
 */
function delaysRequests(fault: HappenedFault): boolean {
  return ['hold', 'delay', 'duplicate', 'pause'].includes(fault.kind);
}

/** What the guarantee is derived from. */
export interface GuaranteeInput {
  readonly scenario: ScenarioConfig;
  readonly faults: readonly HappenedFault[];
  /**
   * The oracle's elections and truncations, when the run has them (the simulator's oracle):
   * what the controller actually did, for the permissions that depend on it.
   */
  readonly replication?: ReplicationFacts;
  /**
   * The run's history, when there is one: where each producer wrote, for the permissions of a
   * producer's own settings (acks). Without it they reach every partition.
   */
  readonly history?: History;
}

/**
 * Every permission Kafka grants under this configuration and these faults, bug kinds removed.
 * @example kafkaPermissions({ scenario, faults: faultsThatHappened(history) }).map((p) => p.id)
 */
export function kafkaPermissions(input: GuaranteeInput): Permission[] {
  const switches = switchesOf(input.scenario);
  const all = [
    ...durabilityPermissions(input, switches),
    ...idempotencePermissions(input.scenario),
    ...transactionPermissions(input, switches),
    ...pipelinePermissions(input.scenario),
  ];
  return withdrawBugKinds(all, bugsThatCanAct(switches.bugs, input.faults));
}

/**
 * A data-loss permission reaching `placed`: its scope, and its setting says where (`on
 * orders-0`). Null when the fault acted on no partition (a power loss whose broker had flushed
 * everything lost nothing). Without replication facts (`placed` null) it reaches every partition.
 */
function dataLoss(
  fields: Omit<Permission, 'kinds' | 'classifications' | 'scope' | 'placedByFault'>,
  placed: Placement | null,
  placedBy: 'fault' | 'writes' = 'fault',
): Permission | null {
  if (placed?.scope?.partitions.length === 0) return null;
  return {
    ...fields,
    setting:
      placed === null || placed.where === ''
        ? fields.setting
        : `${fields.setting}, ${placed.where}`,
    kinds: DATA_LOSS_KINDS,
    classifications: DATA_LOSS_CLASSIFICATIONS,
    ...(placed?.scope === undefined
      ? {}
      : { scope: placed.scope, placedByFault: placedBy === 'fault' }),
  };
}

/** acks=0 or acks=1: loss where such a producer wrote, once a fault happened. */
function acksPermission(input: GuaranteeInput): Permission | null {
  const weakAcks = producersOf(input.scenario.clients).filter(
    ({ settings }) => settings.acks !== -1,
  );
  if (weakAcks.length === 0 || input.faults.length === 0) return null;
  const names = weakAcks.map(({ name }) => name);
  return dataLoss(
    {
      id: 'acks',
      setting: weakAcks.map(({ name, settings }) => `acks=${settings.acks} (${name})`).join(', '),
      because:
        'with acks=0 or acks=1 the leader answers before any follower has the records; if it ' +
        'fails first, a follower without them becomes leader and the old leader truncates ' +
        'them when it returns (acks=all waits for the whole in-sync replica set)',
      source: 'Kafka documentation, Producer Configs: acks; Design: Replication',
    },
    input.history === undefined ? null : writtenScope(input.history, names),
    // Where the producer wrote, not where a leader change truncated: any fault grants it.
    'writes',
  );
}

/** Where acknowledged records may be lost: acks, unclean elections, power loss, old truncation. */
function durabilityPermissions(input: GuaranteeInput, switches: GuaranteeSwitches): Permission[] {
  const { scenario, faults, replication } = input;
  const permissions: Array<Permission | null> = [acksPermission(input)];
  if (scenario.broker.uncleanLeaderElectionEnable && faults.length > 0) {
    permissions.push(
      dataLoss(
        {
          id: 'unclean-leader-election',
          setting: 'unclean.leader.election.enable=true',
          because:
            'a replica outside the ISR may become leader when no in-sync replica is alive; ' +
            'records it lacks, acknowledged ones included, are truncated from the others',
          source:
            'Kafka documentation, Design: Unclean leader election; Broker Configs: ' +
            'unclean.leader.election.enable',
        },
        uncleanElectionScope(replication, () => true),
      ),
    );
  }
  if (faults.some((fault) => fault.kind === 'unclean-election')) {
    permissions.push(
      dataLoss(
        {
          id: 'forced-unclean-election',
          setting: 'an operator-forced unclean leader election',
          because:
            'ElectLeaders with the unclean election type makes a replica that may lack ' +
            'acknowledged records the leader; the others truncate to it',
          source: 'KIP-460 (kafka-leader-election.sh --election-type unclean)',
        },
        // KIP-966's last-known-leader elections count as unclean too; they have their own.
        uncleanElectionScope(replication, (election) => election.rule !== 'last-known-leader'),
      ),
    );
  }
  permissions.push(powerLossPermission(input, switches), lastKnownLeaderPermission(input));
  if (!switches.leaderEpochTruncation && faults.length > 0) {
    permissions.push(
      dataLoss(
        {
          id: 'leader-epoch-truncation-off',
          setting: 'protocol leader.epoch.truncation=false (before KIP-101)',
          because:
            'before KIP-101 a replica that becomes a follower truncates to its own high ' +
            'watermark, which lags the leader’s; two leader changes in a row lose acknowledged ' +
            'records and let replicas diverge',
          source: 'KIP-101, KAFKA-1211',
        },
        leaderChangeScope(replication),
      ),
    );
  }
  return permissions.filter((permission) => permission !== null);
}

/**
 * Last Replica Standing: Kafka does not fsync each write and relies on replication; a broker
 * that loses power loses its unflushed tail, and before KIP-966 it may still be re-elected as
 * the last ISR member. With ELR on, loss needs as many power losses as min.insync.replicas.
 * Scoped to the partitions where a replica lost its unflushed tail.
 */
function powerLossPermission(
  input: GuaranteeInput,
  switches: GuaranteeSwitches,
): Permission | null {
  const losses = input.faults.filter(isPowerLoss).length;
  if (losses === 0) return null;
  // Every append is fsynced before it is acknowledged: a power loss loses nothing acknowledged.
  if (input.scenario.broker.logFlushIntervalMessages === 1) return null;
  const minIsr = Math.min(
    input.scenario.broker.minInsyncReplicas,
    ...input.scenario.topics.map((topic) => topic.replicationFactor),
  );
  const elr = switches.eligibleLeaderReplicasVersion >= 1;
  if (elr && minIsr >= 2 && losses < minIsr) return null;
  const why = elr
    ? `${losses} power losses reached min.insync.replicas=${minIsr}, more than Eligible ` +
      'Leader Replicas (KIP-966) can cover'
    : 'without Eligible Leader Replicas a broker that lost its unflushed log tail can be ' +
      're-elected as the only member of the ISR after the others left it (Last Replica ' +
      'Standing), and the other replicas then truncate to its shorter log; ' +
      'eligible.leader.replicas.version=1 (KIP-966, Kafka 4.0+) prevents it';
  return dataLoss(
    {
      id: 'power-loss',
      setting: `${losses} power loss${losses === 1 ? '' : 'es'} in the run`,
      because:
        'Kafka acknowledges records once the in-sync replicas have them in memory, not on ' +
        'disk (log.flush.interval.messages leaves flushing to the OS), so a power loss loses ' +
        `a broker's unflushed tail; ${why}`,
      source:
        'Kafka documentation, Design: Replication and Operations: Application vs. OS Flush ' +
        'Management; KIP-966',
    },
    powerLossScope(input.replication),
  );
}

/**
 * KIP-966's last resort: with ISR and ELR both empty the controller elects the last known
 * leader as soon as it is unfenced, whatever unclean.leader.election.enable says, and counts the
 * election as unclean. A broker registering after an unclean shutdown (a process crash as much
 * as a power loss) leaves every ISR and ELR, so the replicas that still hold the records can be
 * out of both while the last leader comes back from a power loss without its unflushed tail:
 * everything after it is truncated from the others. Granted only when that happened: an election
 * by this rule of a broker whose log lost a tail to power loss before it, and only on the
 * partitions of those elections. Any other loss after a last-known-leader election still
 * violates the guarantee.
 */
function lastKnownLeaderPermission(input: GuaranteeInput): Permission | null {
  const replication = input.replication;
  if (replication === undefined) return null;
  const powerLost = replication.truncations.filter((cut) => cut.reason === 'power-loss');
  const elected = replication.elections.filter(
    (election) =>
      election.rule === 'last-known-leader' &&
      powerLost.some(
        (cut) =>
          cut.broker === election.leader &&
          cut.topic === election.topic &&
          cut.partition === election.partition &&
          cut.timeUs <= election.timeUs,
      ),
  );
  const [first] = elected;
  if (first === undefined) return null;
  const more = elected.length > 1 ? ` (and ${elected.length - 1} more)` : '';
  return dataLoss(
    {
      id: 'last-known-leader',
      setting:
        `eligible.leader.replicas.version=1: ${first.leader} elected ${first.topic}-` +
        `${first.partition}'s last known leader at ${first.timeUs}us after a power loss${more}`,
      because:
        'with the ISR and the eligible leader replicas both empty the controller elects the ' +
        'last known leader once it is unfenced, even with unclean.leader.election.enable=false, ' +
        'and counts it as an unclean election; a replica that registered after an unclean ' +
        'shutdown (a process crash too) had left the ISR and ELR, so the last leader came back ' +
        'from its power loss without its unflushed tail and the others truncated to it',
      source:
        'KIP-966; Kafka documentation, Operations: Eligible Leader Replicas; ' +
        'PartitionChangeBuilder.canElectLastKnownLeader; KAFKA-15586; KAFKA-19522',
    },
    electionsPlacement(elected),
  );
}

/** The transactional outcomes Kafka answers or allows under the cluster's transaction version. */
function transactionPermissions(input: GuaranteeInput, switches: GuaranteeSwitches): Permission[] {
  const { scenario, faults } = input;
  const transactional = producersOf(scenario.clients).filter(
    ({ settings }) => settings.transactionalId !== null,
  );
  if (transactional.length === 0) return [];
  const permissions: Permission[] = [];
  const ids = transactional.map(({ settings }) => settings.transactionalId);
  const shared = new Set(ids).size < ids.length;
  if (switches.transactionVersion >= 2 && (faults.length > 0 || shared)) {
    permissions.push({
      id: 'end-txn-race',
      kinds: ['fatal-txn-error'],
      classifications: { 'fatal-txn-error': ['INVALID_TXN_STATE'] },
      setting: `transaction.version=${switches.transactionVersion} with ${
        shared ? 'a shared transactional.id' : 'faults'
      }`,
      because:
        'the coordinator answers INVALID_TXN_STATE, fatal to the producer, to an ' +
        'EndTxn(commit) that races its own abort (a timeout or a fence) while that abort is in ' +
        'PrepareAbort, and a coordinator that lost its __transaction_state leadership ' +
        'without learning it answers from its stale cache; the transaction is aborted, ' +
        'nothing is lost or duplicated',
      source: 'KAFKA-20785 (fixed the race with CompleteAbort only)',
    });
  }
  const loaded = coordinatorLoadPermission(input.replication);
  if (loaded !== null) permissions.push(loaded);
  const late = faults.some(delaysRequests);
  if (switches.transactionVersion < 2 && late) {
    permissions.push({
      id: 'transaction-version-1',
      kinds: ['torn-transaction', 'aborted-read', 'fatal-txn-error', 'zombie-write', 'g1c'],
      setting: `transaction.version=${switches.transactionVersion} with late requests`,
      because:
        'before transaction version 2 one producer epoch spans many transactions, so a ' +
        'delayed EndTxn or Produce of an earlier transaction is taken as part of the current ' +
        'one: it commits records the client meant to abort or lets a late batch join it',
      source: 'KIP-890 part 2; KAFKA-17754',
    });
  }
  if (
    switches.transactionVersion < 2 &&
    !scenario.broker.transactionPartitionVerificationEnable &&
    late
  ) {
    permissions.push({
      id: 'no-partition-verification',
      kinds: ['hanging-transaction', 'lost-write'],
      classifications: { 'lost-write': ['held-back-by-last-stable-offset'] },
      setting: 'transaction.partition.verification.enable=false, transaction.version<2',
      because:
        'without verification a partition leader opens a transaction for any transactional ' +
        'batch, so a Produce that arrives after its transaction ended starts one no ' +
        'coordinator will finish; the last stable offset stays below it and read_committed ' +
        'consumers stall, holding back the records after it',
      source: 'KIP-890 part 1; KAFKA-12671',
    });
  }
  return permissions;
}

/** A read-process-write application outside KIP-98/KIP-447's recipe gives up exactly-once. */
function pipelinePermissions(scenario: ScenarioConfig): Permission[] {
  const permissions: Permission[] = [];
  for (const client of scenario.clients) {
    if (client.role !== 'pipeline') continue;
    const { workload, settings } = client;
    const reasons: Array<[string, string, string]> = [];
    if (workload.offsetsCommit !== 'transaction') {
      reasons.push([
        `offsets.commit=${workload.offsetsCommit}`,
        'input offsets committed outside the transaction are not atomic with its output',
        'KafkaProducer.sendOffsetsToTransaction javadoc; KIP-98',
      ]);
    }
    if (!workload.rewindAfterAbort) {
      reasons.push([
        'rewind.after.abort=false',
        'after abortTransaction the application must seek back to its committed offsets; ' +
          'otherwise the aborted batch of inputs is never processed again',
        'KafkaProducer.abortTransaction javadoc; KIP-98',
      ]);
    }
    if (workload.transactionalIdOnRestart === 'random' && !workload.sendOffsetsGroupMetadata) {
      reasons.push([
        'transactional.id.on.restart=random without send.offsets.group.metadata',
        'nothing fences a zombie instance: neither a stable transactional.id nor the group ' +
          'generation sent with the offsets',
        'KIP-447',
      ]);
    }
    if (!workload.requireStable || settings.consumer.isolationLevel !== 'read_committed') {
      reasons.push([
        workload.requireStable ? 'isolation.level=read_uncommitted' : 'require.stable=false',
        'the instance may read input offsets or records a pending transaction is about to ' +
          'change, and process them twice',
        'KIP-447 (OffsetFetch require_stable); KIP-98 (isolation.level)',
      ]);
    }
    for (const [setting, because, source] of reasons) {
      permissions.push({
        id: 'pipeline-recipe',
        kinds: ['eos-violation', 'duplicate', 'g1c'],
        setting: `${setting} (${client.name})`,
        because,
        source,
      });
    }
  }
  return permissions;
}
