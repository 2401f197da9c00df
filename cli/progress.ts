/**
 * Progress of a sweep on stderr. On a terminal, outside CI, a cli-progress bar (seeds done,
 * failures so far, seeds/s, time left), with per-seed lines printed above it. Elsewhere (a pipe,
 * a CI log, a test's string collector) plain lines: one when the sweep starts, then one every
 * five seconds or every tenth of the seeds, whichever comes first, so a CI log shows the sweep is
 * alive without a line per seed. Progress is wall-clock and goes to stderr only; stdout stays the
 * deterministic summary.
 */
import { WriteStream } from 'node:tty';
import { MultiBar, type SingleBar } from 'cli-progress';
import { plural, type SweepResultLine } from '../reports';
import type { TextSink } from './io';

/** How a sweep reports its progress. */
export interface SweepProgress {
  /** `total` seeds in this shard, `resumed` of them already recorded. */
  start(total: number, resumed: number, workers: number): void;
  /** A seed finished. */
  update(line: SweepResultLine): void;
  /** Prints a line without breaking the bar. */
  log(text: string): void;
  stop(): void;
}

/** Plain progress lines at most this often, unless a tenth of the sweep passed. */
const LINE_INTERVAL_MS = 5000;

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** Counts seeds and failures, and measures the rate, for either view. */
class Counter {
  total = 0;
  done = 0;
  failures = 0;
  private runCount = 0;
  private readonly startMs = performance.now();

  add(line: SweepResultLine): void {
    this.done += 1;
    this.runCount += 1;
    if (line.outcome !== 'pass') this.failures += 1;
  }

  get seedsPerSecond(): number {
    const elapsedMs = performance.now() - this.startMs;
    return elapsedMs <= 0 ? 0 : (this.runCount * 1000) / elapsedMs;
  }

  get secondsLeft(): number {
    return (this.total - this.done) / this.seedsPerSecond;
  }
}

/** Plain periodic lines. */
class LineProgress implements SweepProgress {
  private readonly counter = new Counter();
  private lastMs = performance.now();
  private lastTenth = 0;

  constructor(private readonly sink: TextSink) {}

  start(total: number, resumed: number, workers: number): void {
    this.counter.total = total;
    this.counter.done = resumed;
    this.lastTenth = total === 0 ? 10 : Math.floor((resumed * 10) / total);
    const already = resumed === 0 ? '' : ` (${resumed} already recorded)`;
    this.sink.write(`sweep: ${plural(total, 'seed')}${already} on ${plural(workers, 'worker')}\n`);
  }

  update(line: SweepResultLine): void {
    const counter = this.counter;
    counter.add(line);
    const tenth = Math.floor((counter.done * 10) / Math.max(1, counter.total));
    const nowMs = performance.now();
    if (tenth === this.lastTenth && nowMs - this.lastMs < LINE_INTERVAL_MS) return;
    this.lastTenth = tenth;
    this.lastMs = nowMs;
    const percent = Math.floor((counter.done * 100) / Math.max(1, counter.total));
    this.sink.write(
      `progress: ${counter.done}/${counter.total} seeds (${percent}%), ` +
        `${counter.failures} failing, ${counter.seedsPerSecond.toFixed(1)} seeds/s, ` +
        `about ${formatDuration(counter.secondsLeft)} left\n`,
    );
  }

  log(text: string): void {
    this.sink.write(`${text}\n`);
  }

  stop(): void {}
}

/** A cli-progress bar on a terminal. */
class BarProgress implements SweepProgress {
  private readonly counter = new Counter();
  private readonly multi: MultiBar;
  private bar: SingleBar | undefined;

  constructor(stream: WriteStream) {
    this.multi = new MultiBar({
      stream,
      format:
        'sweep [{bar}] {value}/{total} seeds | {failures} failing | {rate} seeds/s | ' +
        '{left} left',
      hideCursor: true,
      clearOnComplete: true,
      fps: 5,
    });
  }

  start(total: number, resumed: number): void {
    this.counter.total = total;
    this.counter.done = resumed;
    this.bar = this.multi.create(total, resumed, this.payload());
  }

  update(line: SweepResultLine): void {
    this.counter.add(line);
    this.bar?.update(this.counter.done, this.payload());
  }

  log(text: string): void {
    this.multi.log(`${text}\n`);
  }

  stop(): void {
    this.multi.stop();
  }

  private payload(): Record<string, string | number> {
    return {
      failures: this.counter.failures,
      rate: this.counter.seedsPerSecond.toFixed(1),
      left: formatDuration(this.counter.secondsLeft),
    };
  }
}

/**
 * The progress view for `sink`: a bar when it is a real terminal and `ci` is false, else lines.
 * @example createProgress(process.stderr, { ci: process.env.CI !== undefined })
 */
export function createProgress(sink: TextSink, options: { readonly ci: boolean }): SweepProgress {
  const stream = sink.raw ?? sink;
  if (!options.ci && stream instanceof WriteStream && stream.isTTY) return new BarProgress(stream);
  return new LineProgress(sink);
}
