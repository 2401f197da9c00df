/**
 * Jepsen-style logical processes of one client: an operation runs on an idle process; a process
 * whose operation ended in `info` (unknown outcome) is retired, and the client continues on a
 * new one. Names are `client#n`.
 */

/** The processes of one client. */
export class ProcessPool {
  private readonly idle: string[] = [];
  private created = 0;

  constructor(private readonly client: string) {}

  /** An idle process, or a new one. */
  acquire(): string {
    const process = this.idle.shift();
    if (process !== undefined) return process;
    const name = `${this.client}#${this.created}`;
    this.created += 1;
    return name;
  }

  /**
   * Retires every idle process: after a crash of the client the application continues as new
   * processes, so one process never goes back to an earlier position (Jepsen's rule).
   */
  retireAll(): void {
    this.idle.length = 0;
  }

  /**
   * Returns a process after an `ok` or `fail` completion. The idle list stays sorted in plain
   * code-unit order; a binary-search insert keeps a release O(log n) comparisons where sorting the
   * whole list was O(n log n), which a producer with thousands of sends in flight felt.
   */
  release(process: string): void {
    let low = 0;
    let high = this.idle.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.idle[middle] as string) < process) low = middle + 1;
      else high = middle;
    }
    this.idle.splice(low, 0, process);
  }
}
