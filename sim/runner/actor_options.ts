/**
 * The actors' options built from a scenario. Every bug switch reaches the model as a flag that
 * records its reads ({@link SwitchReads}), so a run knows which switches it consulted; options
 * objects are merged with `withProperties`, never spread, to keep those flags unread until the
 * model asks.
 */
import { Broker, withProperties, type ClientRules, type ClusterMetadata } from '../actors';
import type { NodeId } from '../kernel';
import {
  compareVersions,
  type BugId,
  type ClientConfig,
  type ProducerSettings,
  type ScenarioConfig,
} from '../../scenarios';
import { switchFlags, whileOff, whileOn, type SwitchFlag, type SwitchReads } from './switch_reads';

type Bugs = ScenarioConfig['bugs'];

/** The broker `id` of `scenario`'s cluster. */
export function newBroker(
  id: NodeId,
  metadata: ClusterMetadata,
  scenario: ScenarioConfig,
  reads: SwitchReads,
): Broker {
  const { bugs, broker } = scenario;
  return new Broker({
    id,
    metadata,
    brokerSessionTimeoutMs: broker.brokerSessionTimeoutMs,
    coordinator: coordinatorOptions(scenario, reads),
    replication: replicationOptions(scenario, reads),
    bugs: switchFlags(reads, {
      skipProducerEpochCheck: whileOn(bugs, 'partition.skip.producer.epoch.check'),
      verificationGuardBeforeEpochCheck: whileOn(bugs, 'KAFKA-19690'),
      acceptAnyFirstSequenceOnEmptyLog: whileOn(bugs, 'KAFKA-15591'),
      singleBatchDedupWindow: whileOn(bugs, 'redpanda-data/redpanda#3039'),
      unknownProducerNeedsSequenceZero: whileOn(bugs, 'redpanda-data/redpanda#22670'),
      markerTimestampIgnored: whileOn(bugs, 'KAFKA-9144'),
      tv2MarkerEpochNotBumpedAccepted: whileOn(bugs, 'KAFKA-19446'),
      tv2MarkerRetryRefused: whileOn(bugs, 'KAFKA-19999'),
    }),
    fetchBatchesMax: 64,
    transactionPartitionVerificationEnable: broker.transactionPartitionVerificationEnable,
    group: groupOptions(scenario, reads),
  });
}

function coordinatorOptions(scenario: ScenarioConfig, reads: SwitchReads) {
  const { bugs, broker } = scenario;
  return withProperties(
    {
      transactionMaxTimeoutMs: broker.transactionMaxTimeoutMs,
      abortTimedOutTransactionCleanupIntervalMs:
        broker.transactionAbortTimedOutTransactionCleanupIntervalMs,
      transactionStateLogNumPartitions: broker.transactionStateLogNumPartitions,
      transactionalIdExpirationMs: broker.transactionalIdExpirationMs,
      removeExpiredTransactionalIdsIntervalMs:
        broker.transactionRemoveExpiredTransactionCleanupIntervalMs,
      transactionVersion: scenario.protocol.transactionVersion,
    },
    switchFlags(reads, {
      staleMarkerResponseRemovesCompletion: whileOn(bugs, 'KAFKA-16352'),
      storageErrorStopsMarkers: whileOn(bugs, 'KAFKA-9749'),
      rotationNotLogged: whileOn(bugs, 'KAFKA-20310'),
      lastProducerEpochNotLogged: whileOn(bugs, 'KAFKA-20357'),
      noRotationOnFenceAbort: whileOn(bugs, 'KAFKA-20090'),
      fenceAbortBumpsTwice: whileOn(bugs, 'KAFKA-19367'),
      timeoutAbortKeepsEpoch: whileOn(bugs, 'KAFKA-6119'),
      fenceBumpsAfterFailedFence: whileOn(bugs, 'KAFKA-9666'),
      failedTombstoneKeepsPendingDead: whileOn(bugs, 'KAFKA-7519'),
      startTimestampMustNotGoBack: whileOn(bugs, 'KAFKA-8803'),
    }),
  );
}

function replicationOptions(scenario: ScenarioConfig, reads: SwitchReads) {
  const { bugs, broker } = scenario;
  return withProperties(
    {
      minInsyncReplicas: broker.minInsyncReplicas,
      replicaLagTimeMaxMs: broker.replicaLagTimeMaxMs,
      replicaFetchWaitMaxMs: broker.replicaFetchWaitMaxMs,
      replicaFetchMinBytes: broker.replicaFetchMinBytes,
      logFlushIntervalMessages: broker.logFlushIntervalMessages,
      producerIdExpirationMs: broker.producerIdExpirationMs,
      producerIdExpirationCheckIntervalMs: broker.producerIdExpirationCheckIntervalMs,
      // KIP-461 (Kafka 2.3): a refused fetch fails the partition, not the fetcher thread.
      fetcherFailsPartitionOnly: compareVersions(scenario.kafkaVersion, '2.3') >= 0,
    },
    switchFlags(reads, {
      strictMinIsrHighWatermark: whileOff(bugs, 'KAFKA-15583'),
      leaderEpochTruncation: whileOff(bugs, 'KAFKA-1211'),
      isrExpansionNeedsLeaderEpochStart: whileOff(bugs, 'KAFKA-7128'),
      epochEndOffsetWithLeaderEpoch: whileOff(bugs, 'KAFKA-6361'),
      highWatermarkAfterAlterPartition: whileOff(bugs, 'KAFKA-13091'),
      fetchFencedByLeaderEpoch: whileOff(bugs, 'KAFKA-7395'),
    }),
  );
}

function groupOptions(scenario: ScenarioConfig, reads: SwitchReads) {
  const { bugs, broker } = scenario;
  // GroupMetadataManager.offsetCommitValue / groupMetadataValue: v1 below IBP 2.1 (KIP-211).
  const recordValueVersion: 1 | 3 =
    compareVersions(broker.interBrokerProtocolVersion, '2.1') < 0 ? 1 : 3;
  return withProperties(
    {
      groupInitialRebalanceDelayMs: broker.groupInitialRebalanceDelayMs,
      groupMinSessionTimeoutMs: broker.groupMinSessionTimeoutMs,
      groupMaxSessionTimeoutMs: broker.groupMaxSessionTimeoutMs,
      offsetsRetentionMinutes: broker.offsetsRetentionMinutes,
      offsetsRetentionCheckIntervalMs: broker.offsetsRetentionCheckIntervalMs,
      recordValueVersion,
    },
    switchFlags(reads, {
      defaultExpireTimestampKept: whileOn(bugs, 'KAFKA-8069'),
      commitExpiresWhateverState: whileOn(bugs, 'KAFKA-4682'),
      networkExceptionUnconverted: whileOn(bugs, 'KAFKA-16386'),
    }),
  );
}

/**
 * `spec` with the Java producer rules its Kafka release picks (KAFKA-14034, KAFKA-13412,
 * KAFKA-16386) and its client's bug flags, each recording its reads.
 */
export function withProducerBugs(spec: ClientConfig, bugs: Bugs, reads: SwitchReads): ClientConfig {
  const rules = switchFlags(reads, {
    bumpWithoutWaitingForInFlight: whileOn(bugs, 'KAFKA-14034'),
    initRetryAfterAnswerThrows: whileOn(bugs, 'KAFKA-13412'),
    txnOffsetCommitRetriesListedOnly: whileOn(bugs, 'KAFKA-16386'),
  });
  const producerOf = (settings: ProducerSettings): ProducerSettings => {
    const tracked = withProperties(settings, rules);
    return settings.client === undefined
      ? tracked
      : withProperties(tracked, { client: clientRulesRead(settings.client, reads) });
  };
  if (spec.role === 'producer') return { ...spec, settings: producerOf(spec.settings) };
  if (spec.role === 'pipeline') {
    const producer = producerOf(spec.settings.producer);
    return { ...spec, settings: { ...spec.settings, producer } };
  }
  return spec;
}

/** A client's rules whose bug flags record their reads (the client bug switches). */
function clientRulesRead(rules: ClientRules, reads: SwitchReads): ClientRules {
  const flag = (id: BugId, value: boolean | undefined): SwitchFlag => ({
    id,
    value: value === true,
  });
  return withProperties(
    rules,
    switchFlags(reads, {
      bumpOnSkippedSequence: flag('confluentinc/librdkafka#4953', rules.bumpOnSkippedSequence),
      bumpWithoutAbort: flag('confluentinc/librdkafka#3575', rules.bumpWithoutAbort),
      reuseAmbiguousSequence: flag('twmb/franz-go#1217', rules.reuseAmbiguousSequence),
      keepFailedSequence: flag('IBM/sarama#1661', rules.keepFailedSequence),
      advanceAckOnPossiblyPersisted: flag(
        'confluentinc/librdkafka#4438',
        rules.advanceAckOnPossiblyPersisted,
      ),
    }),
  );
}
