/**
 * `zombie-write`: a record written by a producer after it was fenced that is visible to
 * read_committed. From the oracle alone: a data record with a producerId (≥ 0), committed and
 * below the partition's final lastStableOffset, appended strictly after a coordinator granted a
 * strictly higher producerEpoch for the same producerId (an InitProducerId, a fencing
 * InitProducerId, or a timeout abort). The history only names the client that sent the value.
 */
import type { EpochGrant, OracleBatch, OracleRecord } from '../history';
import { oracleRecordOf } from '../history';
import type { Anomaly } from './anomaly_types';
import type { CheckContext } from './check_context';
import { topicPartitionName } from './topic_partition';
import type { PartitionIndex } from './transaction_outcome';

/**
 * Reports every visible record appended after its producer was fenced, one anomaly per record,
 * at its append time, naming the earliest grant that fenced it.
 * @example checkZombieWrite(new CheckContext(history, oracle))[0]?.producerEpoch // 0
 */
export function checkZombieWrite(context: CheckContext): Anomaly[] {
  const fencesByProducer = fencesByProducerId(context.oracle.epochGrants);
  const anomalies: Anomaly[] = [];
  for (const index of context.partitionIndexes.values()) {
    index.batches.forEach((batch, position) => {
      // Every record of a batch has its producer, epoch, append time and outcome.
      if (!isVisibleData(index, batch, position)) return;
      const fence = fencesByProducer
        .get(batch.producerId)
        ?.fenceOf(batch.producerEpoch, batch.appendUs);
      if (fence === undefined) return;
      const end = Math.min(batch.lastOffset, index.partition.lastStableOffset - 1);
      for (let offset = batch.baseOffset; offset <= end; offset++) {
        const record = oracleRecordOf(batch, offset);
        anomalies.push(zombieAnomaly(context, { index, record, fence }));
      }
    });
  }
  return anomalies;
}

/**
 * A data batch with a producerId whose records read_committed consumers can see at the end (the
 * ones below the partition's final last stable offset).
 */
function isVisibleData(index: PartitionIndex, batch: OracleBatch, position: number): boolean {
  if (batch.control !== undefined || batch.values.length === 0 || batch.producerId < 0) {
    return false;
  }
  if (batch.baseOffset >= index.partition.lastStableOffset) return false;
  return index.outcomeOfBatch(position)?.status === 'committed';
}

/**
 * One producerId's grants, earliest first (ties keep the oracle's order), with the highest
 * epoch granted up to each: the earliest grant above an epoch is found by binary search, not by
 * a scan, which matters when a producerId runs through thousands of epochs.
 */
export class ProducerFences {
  private readonly highestEpochUpTo: number[] = [];

  constructor(private readonly grants: readonly EpochGrant[]) {
    let highest = -Infinity;
    for (const grant of grants) {
      highest = Math.max(highest, grant.producerEpoch);
      this.highestEpochUpTo.push(highest);
    }
  }

  /**
   * The earliest grant of an epoch strictly above `producerEpoch` made strictly before
   * `appendUs`, µs. That is the earliest grant above the epoch, if that one came before the
   * append: every later grant came later still.
   */
  fenceOf(producerEpoch: number, appendUs: number): EpochGrant | undefined {
    let low = 0;
    let high = this.grants.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((this.highestEpochUpTo[middle] ?? -Infinity) > producerEpoch) high = middle;
      else low = middle + 1;
    }
    const fence = this.grants[low];
    return fence !== undefined && fence.timeUs < appendUs ? fence : undefined;
  }
}

/** The fences of each producerId. */
function fencesByProducerId(grants: readonly EpochGrant[]): Map<number, ProducerFences> {
  const ordered = grants
    .map((grant, position) => ({ grant, position }))
    .sort((a, b) => a.grant.timeUs - b.grant.timeUs || a.position - b.position);
  const byProducer = new Map<number, EpochGrant[]>();
  for (const { grant } of ordered) {
    const known = byProducer.get(grant.producerId);
    if (known === undefined) byProducer.set(grant.producerId, [grant]);
    else known.push(grant);
  }
  return new Map(
    [...byProducer].map(([producerId, list]) => [producerId, new ProducerFences(list)]),
  );
}

/** A visible record and the grant that had fenced its producer before it was appended. */
interface ZombieRecord {
  readonly index: PartitionIndex;
  readonly record: OracleRecord;
  readonly fence: EpochGrant;
}

function zombieAnomaly(context: CheckContext, found: ZombieRecord): Anomaly {
  const { index, record, fence } = found;
  const { topic, partition } = index.partition;
  const value = record.value ?? 0;
  const sent = context.sentValues.get(value);
  const sender = sent === undefined ? 'an unknown client' : `client ${sent.client}`;
  const message =
    `Producer ${record.producerId} epoch ${record.producerEpoch} wrote value ${value} ` +
    `(sent by ${sender}) at ${topicPartitionName(topic, partition)} offset ${record.offset} ` +
    `at ${record.appendUs}us, visible to read_committed, after producerEpoch ` +
    `${fence.producerEpoch} was granted at ${fence.timeUs}us (${fence.reason}, transactionalId ` +
    `${fence.transactionalId})`;
  return {
    kind: 'zombie-write',
    message,
    topic,
    partition,
    offset: record.offset,
    value,
    producerId: record.producerId,
    producerEpoch: record.producerEpoch,
    ...(sent === undefined ? {} : { client: sent.client }),
    timeUs: record.appendUs,
    classification: `fenced-by-${fence.reason}`,
    activeFaults: context.activeFaultsAt(record.appendUs),
  };
}
