/**
 * The history of a run of records an application sent back to back to one partition: one
 * `send` operation per producer batch the run's records landed in (Kafka acknowledges a batch as
 * a whole), not one per record. The invokes keep the place of the first send() in the history
 * (a recorder slot), and each takes its completion's batch when the producer answers it; records
 * still unanswered when the history is read show as one invoke per unanswered range.
 */
import type { SendError, SendResult, TopicPartition } from '../actors';
import type {
  HistoryOpDraft,
  HistoryRecorder,
  InvokeSlot,
  SendRunValue,
  SendValue,
} from '../history';
import type { ProcessPool } from './process_pool';

/** Errors that prove the record was not written (as for single sends). */
export type DefiniteFailure = (error: SendError) => boolean;

/** The records of one producer batch answered together, gathered before they are written. */
interface Segment {
  readonly start: number;
  count: number;
  readonly timeUs: number;
  readonly result: SendResult;
}

/** The operations of one run of sends. */
export class SendRunOps {
  private readonly values: number[] = [];
  /** Per record: answered yet. */
  private readonly answered: boolean[] = [];
  private readonly slot: InvokeSlot;
  private readonly invokedUs: number;
  private open: Segment | null = null;
  /** Processes given to unanswered ranges when the history was read, by first record. */
  private readonly pendingProcesses = new Map<number, string>();
  private readonly flushSegment = (): void => this.flush();

  constructor(
    private readonly recorder: HistoryRecorder,
    private readonly processes: ProcessPool,
    private readonly op: { readonly client: string; readonly clock: () => number },
    private readonly tp: TopicPartition,
    private readonly definiteFailure: DefiniteFailure,
  ) {
    this.invokedUs = op.clock();
    this.slot = recorder.reserve(() => this.unanswered());
  }

  /** Adds the next record of the run; returns its position, for {@link onResult}. */
  add(value: number): number {
    this.values.push(value);
    this.answered.push(false);
    return this.values.length - 1;
  }

  /** The producer answered record `at`: it joins the batch answered just before it, if any. */
  onResult(at: number, result: SendResult): void {
    this.answered[at] = true;
    const open = this.open;
    if (
      open !== null &&
      this.recorder.isHeldOpen(this.flushSegment) &&
      this.extends(open, at, result)
    ) {
      open.count += 1;
      return;
    }
    // Whatever is held open (this run's previous batch too) is written before this one opens.
    this.recorder.holdOpen(this.flushSegment);
    this.open = { start: at, count: 1, timeUs: this.op.clock(), result };
  }

  private extends(open: Segment, at: number, result: SendResult): boolean {
    const before = open.result;
    if (open.start + open.count !== at || open.timeUs !== this.op.clock()) return false;
    if (result.error !== before.error || result.producerId !== before.producerId) return false;
    if (result.producerEpoch !== before.producerEpoch) return false;
    const contiguous =
      before.offset < 0 ? result.offset < 0 : result.offset === before.offset + open.count;
    return result.error !== 'NONE' || contiguous;
  }

  /** Writes the gathered batch: its invoke in the slot, its completion now. */
  private flush(): void {
    const segment = this.open;
    if (segment === null) return;
    this.open = null;
    const process = this.pendingProcesses.get(segment.start) ?? this.processes.acquire();
    this.pendingProcesses.delete(segment.start);
    const { client } = this.op;
    const values = this.values.slice(segment.start, segment.start + segment.count);
    this.recorder.settle(this.slot, {
      timeUs: this.invokedUs,
      type: 'invoke',
      process,
      client,
      f: 'send',
      value: this.valueOf(values),
    });
    const { result } = segment;
    const identity = { producerId: result.producerId, producerEpoch: result.producerEpoch };
    const ok = result.error === 'NONE';
    const type = ok ? 'ok' : this.definiteFailure(result.error) ? 'fail' : 'info';
    const value = { ...this.valueOf(values, ok ? result.offset : undefined), ...identity };
    const completion = { timeUs: segment.timeUs, type, process, client, f: 'send', value };
    this.recorder.append(
      (ok ? completion : { ...completion, error: result.error }) as HistoryOpDraft,
    );
    if (type !== 'info') this.processes.release(process);
  }

  /** One record in the single form (as a lone send writes it), more in the range form. */
  private valueOf(values: readonly number[], offset?: number): SendValue | SendRunValue {
    const { topic, partition } = this.tp;
    const at = offset === undefined ? {} : { offset };
    if (values.length === 1)
      return { send: { topic, partition, value: values[0] as number, ...at } };
    return { run: { topic, partition, values, ...at } };
  }

  /** An invoke per range of records not answered yet, for a history read before they are. */
  private unanswered(): HistoryOpDraft[] {
    const drafts: HistoryOpDraft[] = [];
    let start = -1;
    for (let at = 0; at <= this.values.length; at++) {
      const waiting = at < this.values.length && !this.answered[at];
      if (waiting && start < 0) start = at;
      if (waiting || start < 0) continue;
      let process = this.pendingProcesses.get(start);
      if (process === undefined) {
        process = this.processes.acquire();
        this.pendingProcesses.set(start, process);
      }
      const value = this.valueOf(this.values.slice(start, at));
      const { client } = this.op;
      drafts.push({ timeUs: this.invokedUs, type: 'invoke', process, client, f: 'send', value });
      start = -1;
    }
    return drafts;
  }
}
