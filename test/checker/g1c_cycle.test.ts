/**
 * Goal: prove `g1c` both ways on hand-built histories: a cycle of write-write and write-read
 * dependencies among committed transactions is reported with the transactions and records that
 * make it; a cycle of write-write dependencies alone (G0, which Kafka allows: transactions do not
 * isolate concurrent writers) is not, nor is a read of a record that came first in the log.
 * Method: two partitions of topic `t`, every record committed (non-transactional in the oracle,
 * so no marker is needed), writers as `txn` operations whose outputs name their `source`.
 */
import { describe, expect, it } from 'vitest';
import { checkHistory } from '../../sim/checker';
import type { SendMicroOp } from '../../sim/history';
import { data, historyOf, oracleOf, partitionOf, record, txn, TOPIC } from './builders';

/** A record written at `offset` of `partition`, made from `source` when given. */
function output(
  partition: number,
  value: number,
  offset: number,
  source?: SendMicroOp,
): SendMicroOp {
  const sent = record(partition, value, offset);
  if (source === undefined) return sent;
  const { topic, partition: from, value: read, offset: at = 0 } = source;
  return { ...sent, source: { topic, partition: from, offset: at, value: read } };
}

const A1 = output(0, 1, 0);

describe('g1c', () => {
  it('reports a reader whose output precedes, in a log, a later write of the one it read', () => {
    // P read A's value 1 (wr A→P) and wrote value 2 to t-1 before A's value 3 (ww P→A).
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [A1, output(1, 3, 1)], atUs: 300 }),
      txn({ client: 'P', commit: true, sends: [output(1, 2, 0, A1)], atUs: 200 }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({ partition: 0, records: [data({ offset: 0, value: 1 })] }),
        partitionOf({
          partition: 1,
          records: [data({ offset: 0, value: 2 }), data({ offset: 1, value: 3 })],
        }),
      ],
    });
    const result = checkHistory(history, oracle);
    expect(result.anomalyTypes).toEqual(['g1c']);
    const [anomaly] = result.anomalies;
    expect(anomaly).toMatchObject({
      kind: 'g1c',
      topic: TOPIC,
      partition: 0,
      value: 1,
      client: 'P',
    });
    expect(anomaly?.message).toContain('read value 1 of t-0');
    expect(anomaly?.message).toContain('wrote t-1 after it (value 2, then 3)');
  });

  it('stays silent on a write cycle alone (G0) and on a read of a record that came first', () => {
    // A and B interleave on both partitions in opposite orders: ww A→B on t-0, B→A on t-1.
    // C read A's value 1 and wrote after everything: wr A→C, ww A→C, no way back.
    const history = historyOf(
      txn({ client: 'A', commit: true, sends: [A1, output(1, 4, 1)], atUs: 200 }),
      txn({ client: 'B', commit: true, sends: [output(0, 2, 1), output(1, 3, 0)], atUs: 210 }),
      txn({ client: 'C', commit: true, sends: [output(1, 5, 2, A1)], atUs: 400 }),
    );
    const oracle = oracleOf({
      partitions: [
        partitionOf({
          partition: 0,
          records: [data({ offset: 0, value: 1 }), data({ offset: 1, value: 2 })],
        }),
        partitionOf({
          partition: 1,
          records: [
            data({ offset: 0, value: 3 }),
            data({ offset: 1, value: 4 }),
            data({ offset: 2, value: 5 }),
          ],
        }),
      ],
    });
    expect(checkHistory(history, oracle).anomalyTypes).toEqual([]);
  });
});
