/**
 * Goal: pin the history's range form: delivered runs list exactly the records they were built
 * from, in order; a send run lists one record per value with its offset (-1 under acks=0); and
 * a recorder slot puts the invokes settled later in its place, renumbering what follows.
 * Method: hand-built records, runs and drafts.
 */
import { describe, expect, it } from 'vitest';
import { deliveredBatchesOf, recordsOfBatches } from './delivered';
import { HistoryRecorder, type HistoryOpDraft } from './recorder';
import { sentRecordsOf } from './sent';

const record = (partition: number, offset: number, value: number) => ({
  topic: 't',
  partition,
  offset,
  value,
});

describe('history range form', () => {
  it('groups delivered records into runs of consecutive offsets and back', () => {
    const records = [record(0, 4, 9), record(0, 5, 7), record(1, 6, 8), record(0, 7, 1)];
    const batches = deliveredBatchesOf(records);
    expect(batches.map((batch) => [batch.partition, batch.offset, batch.values])).toEqual([
      [0, 4, [9, 7]],
      [1, 6, [8]],
      [0, 7, [1]],
    ]);
    expect(recordsOfBatches(batches)).toEqual(records);
  });

  it('lists a send run one record per value', () => {
    const run = { topic: 't', partition: 2, values: [10, 11] };
    expect(sentRecordsOf({ run: { ...run, offset: 40 } }).map((send) => send.offset)).toEqual([
      40, 41,
    ]);
    expect(sentRecordsOf({ run: { ...run, offset: -1 } }).map((send) => send.offset)).toEqual([
      -1, -1,
    ]);
    expect(sentRecordsOf({ run })[1]).toEqual({ topic: 't', partition: 2, value: 11 });
  });

  it('puts a slot’s invokes in its place and renumbers the operations after it', () => {
    const recorder = new HistoryRecorder(10);
    const draft = (process: string, type: 'invoke' | 'ok'): HistoryOpDraft =>
      ({ timeUs: 0, type, process, client: 'P', f: 'nemesis', value: {} }) as HistoryOpDraft;
    recorder.append(draft('before', 'ok'));
    const slot = recorder.reserve(() => [draft('pending', 'invoke')]);
    recorder.append(draft('after', 'ok'));
    recorder.settle(slot, draft('settled', 'invoke'));
    expect(recorder.history.map((op) => [op.index, op.process])).toEqual([
      [0, 'before'],
      [1, 'settled'],
      [2, 'pending'],
      [3, 'after'],
    ]);
  });
});
