/**
 * The report's lines on followers that stopped replicating a partition because the fetched
 * records started below their log end offset (Kafka's UnexpectedAppendOffsetException), one text
 * for every view.
 */
import type { RunReport } from '../sim/runner';
import { formatSeconds } from './text_layout';

/**
 * One line per failure:
 * `b2 orders-0 from b1 at 40.006 s: UnexpectedAppendOffsetException, first offset 795 below its
 * log end offset 800; the partition left the fetcher (KIP-461 failed partition)`.
 */
export function fetchFailureLines(report: RunReport): string[] {
  return (report.fetchFailures ?? []).map((failure) => {
    const stopped =
      failure.scope === 'partition'
        ? 'the partition left the fetcher (KIP-461 failed partition)'
        : `the fetcher thread for ${failure.leader} died (before KIP-461)`;
    return (
      `${failure.broker} ${failure.topic}-${failure.partition} from ${failure.leader} at ` +
      `${formatSeconds(failure.timeUs)}: ${failure.error}, first offset ${failure.firstOffset} ` +
      `below its log end offset ${failure.logEndOffset}; ${stopped}`
    );
  });
}
