/**
 * Produce errors a fault injected at this broker (the `produce-error` fault; librdkafka's mock
 * cluster does the same with rd_kafka_mock_push_request_errors). The broker answers each Produce
 * of an injected partition with the next error, as its leader would answer that error: nothing
 * appended, or, for NOT_ENOUGH_REPLICAS_AFTER_APPEND, appended first (DelayedProduce). Kept apart
 * from the broker's state, so a crash does not clear what the fault set.
 */
import {
  answeredAfterAppend,
  type InjectableProduceError,
  type ProduceErrorInjection,
} from '../protocol';
import type { AppendOutcome } from './replica_manager';

/** The injections active at one broker, oldest first. */
export class InjectedProduceErrors {
  private injections: ProduceErrorInjection[] = [];

  add(injection: ProduceErrorInjection): void {
    this.injections.push(injection);
  }

  remove(injection: ProduceErrorInjection): void {
    this.injections = this.injections.filter((active) => active !== injection);
  }

  /**
   * The answer to a Produce of `topic`-`partition`: `respond` itself when nothing is injected,
   * else one that answers the next injected error (`refused: true` when the batch must not be
   * appended, so the caller answers at once).
   */
  take(
    tp: { readonly topic: string; readonly partition: number },
    respond: (outcome: AppendOutcome) => void,
  ): { respond: (outcome: AppendOutcome) => void; refused: InjectableProduceError | null } {
    const injection = this.injections.find(
      (active) =>
        active.remaining.length > 0 &&
        active.topic === tp.topic &&
        active.partition === tp.partition,
    );
    const error = injection?.remaining.shift();
    if (error === undefined) return { respond, refused: null };
    if (!answeredAfterAppend(error)) return { respond, refused: error };
    // Appended, then answered with the error instead of success (an earlier error stays).
    const afterAppend = (outcome: AppendOutcome): void =>
      respond(outcome.error === 'NONE' ? { error, baseOffset: -1 } : outcome);
    return { respond: afterAppend, refused: null };
  }
}
