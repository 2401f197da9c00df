/**
 * The `broker` section of a scenario file: Kafka's broker config keys verbatim, each with its
 * type, range and Kafka's default (docs/scenarios.md lists them).
 */
import { z } from 'zod';
import { boolean, integer, JAVA_INT_MAX, LIMITS, message, ms, section } from '../sim/config';
import { isModelledVersion } from './kafka_versions';

/** A replica count: Kafka's is a Java short, and this model's cluster has at most 100 brokers. */
const replicas = integer({ min: 1, max: LIMITS.brokers });
/** The partition count of an internal topic. */
const internalPartitions = integer({ min: 1, max: LIMITS.internalTopicPartitions });

/**
 * `inter.broker.protocol.version`: a modelled release (`'2.0'`; quote it, YAML reads 2.0 as 2).
 * Whether it is above `kafka.version` is checked with the scenario.
 */
const protocolVersion = z
  .union([z.string(), z.number()], message('must be a Kafka version such as 2.0'))
  .transform(String)
  .refine(isModelledVersion, message('must be a modelled Kafka release such as 2.0'));

/** The broker section; absent keys get Kafka's defaults. */
export const brokerSchema = section({
  'transaction.max.timeout.ms': ms(1).default(900000),
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': ms(1).default(10000),
  'transaction.state.log.num.partitions': internalPartitions.default(50),
  'transactional.id.expiration.ms': ms(1).default(604800000),
  'transaction.remove.expired.transaction.cleanup.interval.ms': ms(1).default(3600000),
  'transaction.state.log.replication.factor': replicas.default(3),
  'transaction.state.log.min.isr': replicas.default(2),
  // Defaults by kafka.version: true from 3.6 (KIP-890 part 1).
  'transaction.partition.verification.enable': boolean().optional(),
  'min.insync.replicas': replicas.default(1),
  'unclean.leader.election.enable': boolean().default(false),
  'replica.lag.time.max.ms': ms(1).default(30000),
  'replica.fetch.wait.max.ms': ms(0).default(500),
  'replica.fetch.min.bytes': integer({ min: 1, max: JAVA_INT_MAX }).default(1),
  // Kafka's default is Long.MAX_VALUE (never flush by count): absent here.
  'log.flush.interval.messages': integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).optional(),
  'producer.id.expiration.ms': ms(1).default(86400000),
  'producer.id.expiration.check.interval.ms': ms(1).default(600000),
  'broker.session.timeout.ms': ms(1).default(9000),
  'offsets.topic.num.partitions': internalPartitions.default(50),
  'offsets.topic.replication.factor': replicas.default(3),
  'group.initial.rebalance.delay.ms': ms(0).default(3000),
  'group.min.session.timeout.ms': ms(1).default(6000),
  'group.max.session.timeout.ms': ms(1).default(1800000),
  // Defaults by kafka.version: 10080 from 2.0 (KIP-186), 1440 before.
  'offsets.retention.minutes': integer({ min: 1, max: JAVA_INT_MAX }).optional(),
  'offsets.retention.check.interval.ms': ms(1).default(600000),
  // Defaults to kafka.version; only the offset commit record schema depends on it here.
  'inter.broker.protocol.version': protocolVersion.optional(),
});
