/**
 * The report's line on Kafka's PartitionsWithLateTransactionsCount gauge (KIP-664), one text for
 * every view: when the count (summed over the brokers) first became non-zero, its largest value,
 * its value at the end, and each partition leader that counted.
 */
import type { RunReport } from '../sim/runner';
import { formatSeconds } from './text_layout';

type Gauge = NonNullable<RunReport['metrics']['lateTransactions']>;

/**
 * `0 all run (late: an open transaction idle over 360000 ms)` or
 * `first non-zero at 380.002 s, at most 1 (at 380.002 s), 0 at the end (late: ...)`.
 */
export function lateTransactionsSummary(gauge: Gauge): string {
  const rule =
    `late: an open transaction idle over ${gauge.thresholdMs} ms, ` +
    'transaction.max.timeout.ms + 5 min';
  if (gauge.firstNonZeroUs === null) return `0 all run (${rule})`;
  const maxAt = gauge.maxAtUs === null ? '' : ` (at ${formatSeconds(gauge.maxAtUs)})`;
  return (
    `first non-zero at ${formatSeconds(gauge.firstNonZeroUs)}, at most ${gauge.max}${maxAt}, ` +
    `${gauge.atEnd} at the end (${rule})`
  );
}

/** One line per interval: `b1 payments-0 producerId 2000: 380.002 s to 390.009 s`. */
export function lateTransactionsIntervals(gauge: Gauge): string[] {
  return gauge.intervals.map((interval) => {
    const to = interval.toUs === null ? 'the end' : formatSeconds(interval.toUs);
    return (
      `${interval.broker} ${interval.topic}-${interval.partition} producerId ` +
      `${interval.producerId}: ${formatSeconds(interval.fromUs)} to ${to}`
    );
  });
}
