/**
 * The workload's single door to the history: it stamps operations with the true virtual time
 * and keeps the invoke and completion of one operation on one process.
 */
import type { HistoryOp, HistoryRecorder } from '../history';
import type { TopicPartition } from '../actors';
import type { ProcessPool } from './process_pool';
import { SendRunOps, type DefiniteFailure } from './send_run_ops';

/** The op variant whose `f` admits F (`poll` and `final-read` share one variant). */
type OpOf<F extends HistoryOp['f']> = HistoryOp extends infer Op
  ? Op extends { f: infer G }
    ? F extends G
      ? Op
      : never
    : never
  : never;

/** An invoked operation awaiting its completion. */
export interface OpenOp<F extends HistoryOp['f']> {
  readonly f: F;
  readonly process: string;
  readonly client: string;
}

/** Writes one client's operations. */
export class HistoryWriter {
  constructor(
    private readonly recorder: HistoryRecorder,
    private readonly clock: () => number,
    private readonly client: string,
    private readonly processes: ProcessPool,
  ) {}

  /** The true virtual time the history is stamped with, microseconds (no clock skew). */
  nowUs(): number {
    return this.clock();
  }

  /**
   * Opens a run of records sent back to back to `tp` (one `send` operation per producer batch
   * they land in); `definiteFailure` says which errors prove a record unwritten.
   */
  openSendRun(tp: TopicPartition, definiteFailure: DefiniteFailure): SendRunOps {
    const op = { client: this.client, clock: this.clock };
    return new SendRunOps(this.recorder, this.processes, op, tp, definiteFailure);
  }

  /** Records an `invoke` and returns the handle to complete it with. */
  invoke<F extends HistoryOp['f']>(f: F, value: OpOf<F>['value']): OpenOp<F> {
    const process = this.processes.acquire();
    this.recorder.append({
      timeUs: this.clock(),
      type: 'invoke',
      process,
      client: this.client,
      f,
      value,
    } as Parameters<HistoryRecorder['append']>[0]);
    return { f, process, client: this.client };
  }

  /** Records the completion; an `info` retires the process. */
  complete<F extends HistoryOp['f']>(
    op: OpenOp<F>,
    type: 'ok' | 'fail' | 'info',
    value: OpOf<F>['value'],
    error?: string,
  ): void {
    const base = {
      timeUs: this.clock(),
      type,
      process: op.process,
      client: op.client,
      f: op.f,
      value,
    };
    this.recorder.append(
      (error === undefined ? base : { ...base, error }) as Parameters<HistoryRecorder['append']>[0],
    );
    if (type !== 'info') this.processes.release(op.process);
  }
}
