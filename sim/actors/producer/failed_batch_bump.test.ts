/**
 * Goal: prove KAFKA-14034's switch both ways on the Java sender. An idempotent producer has
 * three batches of events-0 in flight when the connection drops; all three wait to retry and
 * may be in the log. The first one's retry fails for good (UNKNOWN_SERVER_ERROR). With the bug
 * (every release) the producer bumps its epoch at once and rewrites the two others, so the next
 * retry goes out at epoch 1, sequence 0: a new write the broker cannot deduplicate. With the fix
 * proposed in apache/kafka#13796 the partition's sequence is unresolved and the next retry keeps
 * epoch 0, sequence 1 (a duplicate the broker recognises); the epoch moves only after.
 * Method: one RecordSender driven by hand (test/harness/record_sender.ts).
 */
import { describe, expect, it } from 'vitest';
import { handDrivenSender } from '../../../test/harness/record_sender';
import type { ProduceRequest } from '../protocol';

/**
 * Three batches of events-0 are in flight when the connection drops (an answer was lost): all
 * three are retried, and may all be in the log. The first one's retry fails for good.
 */
function failedRetryBeforeOthers(bumpWithoutWaitingForInFlight: boolean) {
  const run = handDrivenSender({ config: { bumpWithoutWaitingForInFlight } });
  run.append(0);
  run.append(0);
  run.append(0);
  run.reset('b1');
  run.later(200_000);
  const retry: ProduceRequest = run.last();
  expect(retry.batch).toMatchObject({ producerEpoch: 0, baseSequence: 0 });
  const before = run.sent.length;
  run.answer(retry, 'UNKNOWN_SERVER_ERROR');
  run.later(200_000);
  return run.sent.slice(before).map((entry) => entry.request.batch);
}

describe('KAFKA-14034: the epoch bump after a failed batch', () => {
  it('on (every release): rewrites the batches waiting to retry, resent as new writes', () => {
    const resent = failedRetryBeforeOthers(true);
    expect(resent[0]).toMatchObject({ producerId: 7, producerEpoch: 1, baseSequence: 0 });
  });

  it('off (apache/kafka#13796): the next retry keeps its epoch and sequence', () => {
    const resent = failedRetryBeforeOthers(false);
    expect(resent[0]).toMatchObject({ producerId: 7, producerEpoch: 0, baseSequence: 1 });
  });
});
