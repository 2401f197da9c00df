/**
 * The Kafka releases eos-sim models and, for each, every version-dependent behaviour: which
 * historical bugs it had (each under its public id), its `transaction.version`, whether it
 * verifies transactional produces (KIP-890 part 1) and its ELR feature level (KIP-966). A
 * scenario's `kafka.version` picks a row; every switch can still be set one by one in the file.
 * docs/versions.md is the matrix in prose, with the sources.
 *
 * Versions are `major.minor` (`3.7`), or with a patch (`3.7.1`, `0.11.0.2`): a patch level only
 * matters where a fix shipped in one (0.11.0.2 is not 0.11). A fix is dated by the first
 * release line whose `.0` carries it; backports to older lines are named in the docs, not
 * modelled.
 */

/** The minor release lines modelled, oldest first. Exactly-once starts at 0.11 (KIP-98). */
export const KAFKA_VERSIONS = [
  '0.11',
  '1.0',
  '1.1',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
  '2.4',
  '2.5',
  '2.6',
  '2.7',
  '2.8',
  '3.0',
  '3.1',
  '3.2',
  '3.3',
  '3.4',
  '3.5',
  '3.6',
  '3.7',
  '3.8',
  '3.9',
  '4.0',
  '4.1',
  '4.2',
  '4.3',
  '4.4',
  '4.5',
] as const;

/**
 * The newest modelled release line and the default `kafka.version`: 4.5, the line that carries
 * KAFKA-15591's first-sequence rule (apache/kafka#23234).
 */
export const NEWEST_KAFKA_VERSION = '4.5';

/** A bug switch's public id: a JIRA key, or `owner/repo#N` for another project's tracker. */
export const BUG_IDS = [
  'KAFKA-1211',
  'KAFKA-4682',
  'KAFKA-6119',
  'KAFKA-6361',
  'KAFKA-7128',
  'KAFKA-7395',
  'KAFKA-7519',
  'KAFKA-8069',
  'KAFKA-8803',
  'KAFKA-9144',
  'KAFKA-9666',
  'KAFKA-9749',
  'KAFKA-13091',
  'KAFKA-13412',
  'KAFKA-14034',
  'KAFKA-15583',
  'KAFKA-15591',
  'KAFKA-16352',
  'KAFKA-16386',
  'KAFKA-19367',
  'KAFKA-19446',
  'KAFKA-19690',
  'KAFKA-19999',
  'KAFKA-20090',
  'KAFKA-20310',
  'KAFKA-20357',
  'redpanda-data/redpanda#3039',
  'redpanda-data/redpanda#22670',
  'confluentinc/librdkafka#3575',
  'confluentinc/librdkafka#4953',
  'confluentinc/librdkafka#4438',
  'twmb/franz-go#1217',
  'IBM/sarama#1661',
  'partition.skip.producer.epoch.check',
] as const;

/** One of {@link BUG_IDS}. */
export type BugId = (typeof BUG_IDS)[number];

/** One row of the matrix: a bug, what turning it on changes, and the releases that had it. */
export interface BugRow {
  readonly id: BugId;
  /** What the simulated Kafka does differently with the bug on. */
  readonly changes: string;
  /** The first release with the bug; undefined: every modelled release before `fixed`. */
  readonly introduced?: string;
  /** The first release without it; undefined: no Kafka release has it (another system, a test). */
  readonly fixed?: string;
  /** Where the facts come from: JIRA, pull request, KIP. */
  readonly source: string;
  /** True for another system's bug or a test-only mutation: never on for any Kafka version. */
  readonly notKafka?: boolean;
  /**
   * True when no release has a fix (none merged): on for every modelled release from
   * `introduced`.
   */
  readonly unfixed?: boolean;
}

/** Every bug switch, in id order. */
export const BUG_ROWS: readonly BugRow[] = [
  {
    id: 'KAFKA-1211',
    changes:
      'a restarted follower truncates to its high watermark instead of asking the leader for the ' +
      'end offset of its leader epoch (pre-KIP-101), so a fast second failover loses ' +
      'acks=all writes',
    fixed: '0.11',
    source: 'KIP-101, KAFKA-1211 (fixed with leader epochs in 0.11.0)',
  },
  {
    id: 'KAFKA-4682',
    changes:
      'every offset commit expires offsets.retention.minutes after it, even while its group has ' +
      'members (pre-KIP-211): a partition of a live group that gets no new input loses its ' +
      'committed offset, and the next rebalance restarts it from auto.offset.reset',
    fixed: '2.1',
    source:
      'KAFKA-4682, KIP-211, apache/kafka#4896 (GroupMetadata.removeExpiredOffsets, ' +
      'KafkaApis.handleOffsetCommit; in 2.1.0 as 418a91b5d4e)',
  },
  {
    id: 'KAFKA-6119',
    changes:
      'the coordinator aborts a timed-out transaction at its current epoch (an EndTxn(abort) of ' +
      'its own) instead of fencing it with a bump: the producer, unaware, adds its next ' +
      'partitions to a new transaction under the same epoch and commits only those',
    fixed: '0.11.0.2',
    source:
      'KAFKA-6119, apache/kafka#4137 (TransactionCoordinator.abortTimedOutTransactions, ' +
      'prepareFenceProducerEpoch)',
  },
  {
    id: 'KAFKA-6361',
    changes:
      'OffsetsForLeaderEpoch is answered with the start of the next larger epoch for an epoch ' +
      'the leader lacks, and the follower truncates to that offset without comparing epochs ' +
      '(pre-KIP-279): after two leader changes in a row the replicas keep different records at ' +
      'the same offsets',
    fixed: '2.0',
    source:
      'KAFKA-6361, KIP-279, apache/kafka#4882 (LeaderEpochFileCache.endOffsetFor, ' +
      'ReplicaFetcherThread.maybeTruncate)',
  },
  {
    id: 'KAFKA-7128',
    changes:
      'a follower joins the ISR once it reaches the high watermark, even below the offset the ' +
      'leader started its epoch at (Partition.maybeExpandIsr without leaderEpochStartOffsetOpt): ' +
      "committed records above a new leader's lagging HW are lost when the joiner is elected",
    fixed: '2.1',
    source: 'KAFKA-7128, apache/kafka#5557 (backport to 2.0.1 not modelled)',
  },
  {
    id: 'KAFKA-7395',
    changes:
      'a Fetch carries no current leader epoch (pre-KIP-320): the leader serves any fetch while ' +
      'it leads, and a follower whose leader comes back under a new epoch keeps fetching without ' +
      'truncating, so a tail it missed the truncation of stays and the replicas diverge',
    fixed: '2.1',
    source:
      'KAFKA-7395, KIP-320, apache/kafka#5661 (Partition.makeFollower, ' +
      'AbstractFetcherThread; first reported as KAFKA-6880)',
  },
  {
    id: 'KAFKA-7519',
    changes:
      'a transactional.id expiration whose tombstone append fails leaves the id pending Dead: ' +
      'every later request for it is CONCURRENT_TRANSACTIONS until the coordinator moves',
    fixed: '2.1',
    source:
      'KAFKA-7519, apache/kafka#5820 (TransactionStateManager.removeExpiredTransactionalIds; ' +
      'backport 2.0.1)',
  },
  {
    id: 'KAFKA-8069',
    changes:
      'a group coordinator loading a v1 offset commit record (written below ' +
      'inter.broker.protocol.version 2.1) takes its default expire timestamp (-1) as a real ' +
      'one: once the group is Empty the next offsets.retention.check.interval.ms scan expires ' +
      'every such offset, and the group restarts from auto.offset.reset',
    introduced: '2.1',
    fixed: '2.2',
    source:
      'KAFKA-8069, apache/kafka#6401 (GroupMetadataManager.readOffsetMessageValue; in 2.2.0 as ' +
      '4ace51a4827, KIP-211 made the expire timestamp optional in 2.1)',
  },
  {
    id: 'KAFKA-8803',
    changes:
      "the move to Ongoing is refused when the previous transaction's start time is later than " +
      "the new one (after the coordinator's clock stepped back): the refusal throws in the " +
      'append callback, the pending transition stays set and the id answers ' +
      'CONCURRENT_TRANSACTIONS until the coordinator moves',
    fixed: '2.5',
    source:
      'KAFKA-8803, apache/kafka#8278 (TransactionMetadata.completeTransitionTo; in 2.5.0 as ' +
      '9d68b8e3db2)',
  },
  {
    id: 'KAFKA-9144',
    changes:
      "a partition takes a producer's last timestamp from its data batches only, not from " +
      'markers: after an epoch-bumping marker it has none, so the producer state expires at the ' +
      'next check and a zombie batch of the fenced epoch is accepted',
    fixed: '2.5',
    source: 'KAFKA-9144, apache/kafka#7687 (ProducerStateEntry.lastTimestamp; backport 2.4.1)',
  },
  {
    id: 'KAFKA-9666',
    changes:
      'an epoch fence whose PrepareAbort write fails still leaves the epoch bumped, and every ' +
      'retry bumps it again: a long __transaction_state outage exhausts it and the transaction ' +
      'can no longer be fenced or aborted',
    fixed: '2.6',
    source:
      'KAFKA-9666, apache/kafka#8239 (TransactionMetadata.prepareFenceProducerEpoch, ' +
      'hasFailedEpochFence)',
  },
  {
    id: 'KAFKA-9749',
    changes:
      "a WriteTxnMarkers answered KAFKA_STORAGE_ERROR (the leader's log directory failed) " +
      'throws in the completion handler: the markers are neither retried nor completed, so the ' +
      'transaction stays in PrepareCommit/PrepareAbort until its coordinator moves',
    introduced: '1.0',
    fixed: '2.5',
    source:
      'KAFKA-9749, apache/kafka#8336 (TransactionMarkerRequestCompletionHandler; ' +
      'KAFKA_STORAGE_ERROR from KIP-112 in 1.0; in 2.5.0 as 5a1567631d7)',
  },
  {
    id: 'KAFKA-13091',
    changes:
      'the leader does not try to advance the high watermark when the controller accepts its ISR ' +
      'shrink (the AlterIsr path of ZooKeeper mode): acks=all produces waiting on a removed ' +
      'follower stay unanswered until the next append or follower fetch of the partition',
    introduced: '2.7',
    fixed: '3.1',
    source:
      'KAFKA-13091, apache/kafka#11245 (Partition.handleAlterIsrResponse; AlterIsr from KIP-497 ' +
      'in 2.7)',
  },
  {
    id: 'KAFKA-13412',
    changes:
      'the Java producer keeps the pending initTransactions result only while INITIALIZING: a ' +
      'call retried after a TimeoutException (max.block.ms), once the InitProducerId came back ' +
      'in the background, tries READY -> INITIALIZING and throws KafkaException (reported as ' +
      'INVALID_TXN_STATE), so the application closes the producer',
    introduced: '2.0',
    fixed: '3.1.1',
    source:
      'KAFKA-13412, apache/kafka#11452 (TransactionManager.handleCachedTransactionRequestResult; ' +
      'in 3.1.1 as cde0046d15a and 3.2.0 as df2236d73bc)',
  },
  {
    id: 'KAFKA-14034',
    changes:
      'an idempotent Java producer whose batch fails for good bumps its epoch at once and ' +
      'rewrites the batches still in flight or waiting to retry under the new epoch from ' +
      'sequence 0; one already in the log but unacknowledged is written again. Off: the fix ' +
      'proposed in apache/kafka#13796 (mark the sequence unresolved, bump once they complete)',
    unfixed: true,
    source:
      'KAFKA-14034, apache/kafka#13796 (closed unmerged; TransactionManager.handleFailedBatch, ' +
      'requestEpochBumpForPartition, markSequenceUnresolved)',
  },
  {
    id: 'KAFKA-15583',
    changes:
      'the high watermark advances while the ISR is below min.insync.replicas (Partition.' +
      'maybeIncrementLeaderHW without the under-min-ISR guard)',
    fixed: '3.7',
    source: 'KAFKA-15583, apache/kafka#14594',
  },
  {
    id: 'KAFKA-15591',
    changes:
      'a partition leader with no state for a producer accepts any first sequence, even on a ' +
      'partition that never held a record (the KIP-360 rule of 2.5 to 4.4)',
    introduced: '2.5',
    fixed: '4.5',
    source: 'KAFKA-15591, apache/kafka#23234 (also reported as KAFKA-14312, KAFKA-19880)',
  },
  {
    id: 'KAFKA-16352',
    changes:
      'a late WriteTxnMarkers response under an older coordinator epoch removes the pending ' +
      'completion of the reloaded transaction, which then stays in PrepareCommit/PrepareAbort',
    fixed: '3.8',
    source: 'KAFKA-16352, apache/kafka#15524 (TransactionMarkerChannelManager.removeMarkersForTxn)',
  },
  {
    id: 'KAFKA-16386',
    changes:
      'a TxnOffsetCommit whose KIP-890 verification died in transport is answered ' +
      'NETWORK_EXCEPTION (maybeConvertOffsetCommitError has no case for it), and the Java ' +
      "producer's TxnOffsetCommitHandler of the same release, which retries only the errors " +
      'it lists, fails fatally on it ("Unexpected error in TxnOffsetCommitResponse")',
    introduced: '3.7',
    fixed: '3.7.1',
    source:
      'KAFKA-16386, apache/kafka#15559 (GroupMetadataManager.maybeConvertOffsetCommitError; ' +
      'in 3.7.1 and 3.8.0); client half apache/kafka#15266 (TransactionManager.' +
      'TxnOffsetCommitHandler, in 3.8.0); verification of TxnOffsetCommit from 3.7.0 (KAFKA-15449)',
  },
  {
    id: 'KAFKA-19367',
    changes:
      'under transaction version 2 the abort after an epoch fence (InitProducerId on an Ongoing ' +
      'transaction, a timeout) bumps the epoch again: one epoch skipped, and from a fenced 32767 ' +
      'the bump overflows, the abort fails (UNKNOWN_SERVER_ERROR) and the transaction hangs',
    introduced: '4.0',
    fixed: '4.1',
    source:
      'KAFKA-19367, apache/kafka#19910 and follow-up #19976 (merged June 2025; the follow-up was ' +
      'cherry-picked to 4.0 as #19991, so 4.0.1 likely has the fix; 4.1.0 is the first minor)',
  },
  {
    id: 'KAFKA-19446',
    changes:
      "a transaction version 2 marker needs only an epoch not below the producer's, as a " +
      'transaction version 0 marker: a late marker of the previous transaction, which carries ' +
      'the epoch the next transaction runs at, commits or aborts what that next one wrote',
    introduced: '4.0',
    fixed: '4.2',
    source:
      'KAFKA-19446, apache/kafka#20882 (ProducerStateManager.checkProducerEpoch; merged ' +
      'Nov 2025, dated 4.2 from the merge)',
  },
  {
    id: 'KAFKA-19690',
    changes:
      'a transactional produce missing its verification guard is refused with the fatal ' +
      'INVALID_TXN_STATE before its stale epoch is noticed (INVALID_PRODUCER_EPOCH, abortable)',
    introduced: '3.6',
    fixed: '4.2',
    source: 'KAFKA-19690, apache/kafka#20534 (backports #20577 to 3.9, #20618 to 4.1)',
  },
  {
    id: 'KAFKA-19999',
    changes:
      "KAFKA-19446's strict rule without its retry exemption: a transaction version 2 marker at " +
      "the producer's current epoch is refused even when no transaction is open, so a resent " +
      'marker (its answer lost, or after a coordinator reload) is INVALID_PRODUCER_EPOCH and the ' +
      'coordinator leaves the transaction in PrepareCommit/PrepareAbort',
    introduced: '4.2',
    fixed: '4.2',
    source:
      'KAFKA-19999, apache/kafka#21176 (merged Dec 2025, after #20882 and before the 4.2 line ' +
      'by merge date, so no modelled release has it; on only when set)',
  },
  {
    id: 'KAFKA-20090',
    changes:
      'an abort by epoch fence (transaction timeout, InitProducerId) at an exhausted epoch does ' +
      'not rotate the producerId: CompleteAbort stays at epoch 32767, a retried abort hands it ' +
      'to the producer and its next commit cannot bump (transaction stuck Ongoing)',
    introduced: '4.0',
    fixed: '4.3',
    source:
      'KAFKA-20090, apache/kafka#21506 and #21469 (merged Feb 2026; 4.3.0 is the first release ' +
      'after the merge)',
  },
  {
    id: 'KAFKA-20310',
    changes:
      'TransactionLog.valueToBytes does not write previousProducerId and nextProducerId: a ' +
      'coordinator failover between PrepareCommit and CompleteCommit at an exhausted epoch ' +
      'completes without the rotation, and a retry after a rotation is fenced',
    introduced: '4.0',
    fixed: '4.3',
    source: 'KAFKA-20310, apache/kafka#21828 (merged Mar 2026; first release after it 4.3.0)',
  },
  {
    id: 'KAFKA-20357',
    changes:
      'lastProducerEpoch is not written to __transaction_state: an InitProducerId retried after ' +
      'a coordinator failover (KIP-360), e.g. after a producerId rotation, is PRODUCER_FENCED',
    introduced: '2.5',
    fixed: '4.4',
    source:
      'KAFKA-20357, apache/kafka#22096 (merged Apr 2026, after the 4.3 branch; dated 4.4 here)',
  },
  {
    id: 'redpanda-data/redpanda#3039',
    changes:
      'the partition leader keeps only the last batch of a producer for deduplication instead of ' +
      'the last five, so a retry of an older in-flight batch is OUT_OF_ORDER_SEQUENCE_NUMBER',
    source: 'redpanda-data/redpanda#3039, fix #3077 (Redpanda 21.10.x); Jepsen Redpanda 21.10.1',
    notKafka: true,
  },
  {
    id: 'redpanda-data/redpanda#22670',
    changes:
      'a partition leader with no state for a producer (its state expired after ' +
      'producer.id.expiration.ms) answers a non-zero first sequence OUT_OF_ORDER_SEQUENCE_NUMBER ' +
      'on every log: librdkafka takes that as fatal, the Java client bumps its epoch',
    source: 'redpanda-data/redpanda#22670 (Redpanda 24.1.12), fix #22687, backport #22757 (24.2.x)',
    notKafka: true,
  },
  {
    id: 'confluentinc/librdkafka#3575',
    changes:
      'a librdkafka transactional producer meeting OUT_OF_ORDER_SEQUENCE_NUMBER behind a failed ' +
      'batch bumps its epoch with InitProducerId in the middle of the transaction and carries ' +
      'on: the coordinator aborts what was written before, the commit commits the rest',
    source:
      'confluentinc/librdkafka#3575, fix 2d78e928 in librdkafka 1.8.2 ' +
      '(rd_kafka_idemp_drain_epoch_bump raises an abortable error); on by client.version',
    notKafka: true,
  },
  {
    id: 'confluentinc/librdkafka#4953',
    changes:
      'a librdkafka idempotent producer bumps its epoch on OUT_OF_ORDER_SEQUENCE_NUMBER behind a ' +
      'failed batch and renumbers every partition: a retry that was already written on another ' +
      'partition is written again under the new epoch',
    source:
      'confluentinc/librdkafka#4953, fix proposed in #4972 (unreleased): ' +
      'rd_kafka_handle_idempotent_Produce_error; on by client.version',
    notKafka: true,
  },
  {
    id: 'confluentinc/librdkafka#4438',
    changes:
      'a librdkafka idempotent producer retrying a batch that may be in the log (a transport ' +
      'failure or timeout, REQUEST_TIMED_OUT, NOT_ENOUGH_REPLICAS_AFTER_APPEND) moves its next ' +
      'expected acknowledgement past it: a later batch refused OUT_OF_ORDER_SEQUENCE_NUMBER ' +
      'behind a refused retry reads as a rewound sequence, a fatal error',
    source:
      'confluentinc/librdkafka#4438, fix 0fd8e30e5 in librdkafka 2.3.0 ' +
      '(rd_kafka_handle_Produce_error: update_next_ack false); on by client.version',
    notKafka: true,
  },
  {
    id: 'twmb/franz-go#1217',
    changes:
      'a franz-go idempotent producer lets a batch answered REQUEST_TIMED_OUT or ' +
      'NOT_ENOUGH_REPLICAS_AFTER_APPEND (maybe written) fail at its retry or delivery limit and ' +
      'rewinds the partition to its sequence: the next records reuse it and are acknowledged ' +
      'as duplicates of the written batch without being written',
    source:
      'twmb/franz-go#1217, fix #1218 (commit 32e1580a, v1.20.7: unsureIfProduced in ' +
      'pkg/kgo/sink.go); on by client.version',
    notKafka: true,
  },
  {
    id: 'IBM/sarama#1661',
    changes:
      'a sarama idempotent producer keeps the sequence numbers of messages that failed for ' +
      'good and never bumps its epoch: the next batch leaves a gap, is refused ' +
      'OUT_OF_ORDER_SEQUENCE_NUMBER, which sarama does not retry, and so is every later one',
    source:
      'IBM/sarama#1661, commit 9df3038a in sarama 1.26.2 (sequence taken in ' +
      'partitionProducer.dispatch, transactionManager.bumpEpoch on returnError); ' +
      'on by client.version',
    notKafka: true,
  },
  {
    id: 'partition.skip.producer.epoch.check',
    changes:
      'test-only mutation, no release had it: the partition leader accepts batches and markers ' +
      'with a stale producer epoch',
    source: 'eos-sim mutation (proves the zombie-write checker fires)',
    notKafka: true,
  },
];

/** The version-dependent settings other than bugs. */
export interface VersionDefaults {
  /** `transaction.version` (KIP-890 part 2 is 2, the default from 4.0). */
  readonly transactionVersion: 0 | 1 | 2;
  /** `transaction.partition.verification.enable`: exists and defaults to true from 3.6. */
  readonly transactionPartitionVerificationEnable: boolean;
  /** `eligible.leader.replicas.version` (KIP-966): 1 from 4.1. */
  readonly eligibleLeaderReplicasVersion: 0 | 1;
  /** The producer's `linger.ms` (KIP-1030: 5 from 4.0, 0 before). */
  readonly lingerMs: number;
  /** `offsets.retention.minutes` (KIP-186: 10080, seven days, from 2.0; 1440 before). */
  readonly offsetsRetentionMinutes: number;
}

/** A version's numeric parts: `0.11.0.2` → `[0, 11, 0, 2]`. */
function partsOf(version: string): number[] {
  return version.split('.').map(Number);
}

/** Negative when `a` is older than `b`, 0 when equal (missing parts are zeros). */
export function compareVersions(a: string, b: string): number {
  const left = partsOf(a);
  const right = partsOf(b);
  for (let index = 0; index < Math.max(left.length, right.length); index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

/**
 * Whether `version` is one eos-sim models: a listed `major.minor`, optionally with patch parts.
 * @example isModelledVersion('3.7.1') // true
 * @example isModelledVersion('5.0') // false
 */
export function isModelledVersion(version: string): boolean {
  if (!/^\d+\.\d+(\.\d+){0,2}$/.test(version)) return false;
  const [major, minor] = version.split('.');
  return (KAFKA_VERSIONS as readonly string[]).includes(`${major}.${minor}`);
}

/**
 * Whether the release `version` has the bug of `row`.
 * @example hasBug(rowOf('KAFKA-19690'), '4.1') // true
 */
export function hasBug(row: BugRow, version: string): boolean {
  if (row.notKafka === true) return false;
  const introduced = row.introduced === undefined || compareVersions(version, row.introduced) >= 0;
  if (row.unfixed === true) return introduced;
  if (row.fixed === undefined) return false;
  return introduced && compareVersions(version, row.fixed) < 0;
}

/** The row of one bug id. */
export function rowOf(id: BugId): BugRow {
  const row = BUG_ROWS.find((candidate) => candidate.id === id);
  if (row === undefined) throw new Error(`no bug row for ${id}`);
  return row;
}

/** Every bug switch's value in the release `version`. */
export function bugsOf(version: string): Record<BugId, boolean> {
  const bugs = {} as Record<BugId, boolean>;
  for (const row of BUG_ROWS) bugs[row.id] = hasBug(row, version);
  return bugs;
}

/**
 * The version-dependent defaults of the release `version`.
 * @example defaultsOf('3.9').transactionVersion // 0
 */
export function defaultsOf(version: string): VersionDefaults {
  const atLeast = (release: string): boolean => compareVersions(version, release) >= 0;
  return {
    transactionVersion: atLeast('4.0') ? 2 : 0,
    transactionPartitionVerificationEnable: atLeast('3.6'),
    eligibleLeaderReplicasVersion: atLeast('4.1') ? 1 : 0,
    lingerMs: atLeast('4.0') ? 5 : 0,
    offsetsRetentionMinutes: atLeast('2.0') ? 10080 : 1440,
  };
}

/**
 * The hint for a version YAML read as a number and so lost its trailing zero (`4.0` unquoted is
 * the number 4): write it quoted. Empty for anything else.
 * @example unquotedVersionHint(4) // '; YAML reads an unquoted 4.0 as the number 4: …'
 */
export function unquotedVersionHint(value: unknown): string {
  if (typeof value !== 'number' || !Number.isInteger(value)) return '';
  const meant = `${value}.0`;
  if (!isModelledVersion(meant)) return '';
  return `; YAML reads an unquoted ${meant} as the number ${value}: write it quoted, "${meant}"`;
}
