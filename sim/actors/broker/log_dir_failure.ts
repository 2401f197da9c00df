/**
 * The disk under a broker's log directory (the `log-dir-failure` fault; KIP-112). After the disk
 * fails, the next write to a log throws an IOException: Kafka wraps it in KafkaStorageException,
 * LogDirFailureChannel.maybeAddOfflineLogDir marks the directory offline, and the request is
 * answered KAFKA_STORAGE_ERROR (ReplicaManager.appendToLocalLog); every later write fails the
 * same way. The LogDirFailureHandler thread then takes the offline directory and, with no live log
 * directory left (one `log.dirs` entry), halts the broker (LogManager.handleLogDirFailure:
 * "Shutdown broker because all log dirs ... have failed", Exit.halt(1)); the halt itself is the
 * fault's, through `onOffline`. Reads are served from the page cache and do not fail. Kept apart
 * from the broker's state, as the disk is: a crash does not repair it.
 */

/** The one error a write to a failed log directory is answered with. */
export type StorageError = 'KAFKA_STORAGE_ERROR';

/** One broker's log directory: healthy, or failed since the fault began. */
export class LogDirState {
  private failure: { readonly onOffline: () => void; offline: boolean } | null = null;

  /** The disk fails; `onOffline` runs once, when the first write finds it. */
  fail(onOffline: () => void): void {
    this.failure = { onOffline, offline: false };
  }

  /** The disk is replaced or remounted: writes succeed again. */
  repair(): void {
    this.failure = null;
  }

  /**
   * The error of a log write now: null when the disk is healthy, else KAFKA_STORAGE_ERROR (the
   * first such write marks the directory offline).
   */
  writeError(): StorageError | null {
    if (this.failure === null) return null;
    if (!this.failure.offline) {
      this.failure.offline = true;
      this.failure.onOffline();
    }
    return 'KAFKA_STORAGE_ERROR';
  }
}
