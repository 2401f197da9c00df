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

  /** Returns a process after an `ok` or `fail` completion. */
  release(process: string): void {
    this.idle.push(process);
    this.idle.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
