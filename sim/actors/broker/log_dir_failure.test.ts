/**
 * Goal: pin the failed log directory's write rule (LogDirFailureChannel.maybeAddOfflineLogDir):
 * a healthy disk refuses nothing; after `fail`, every write is KAFKA_STORAGE_ERROR and only the
 * first marks the directory offline (the halt is asked for once); `repair` ends it.
 */
import { describe, expect, it } from 'vitest';
import { LogDirState } from './log_dir_failure';

describe('LogDirState', () => {
  it('fails every write after the disk fails, goes offline once, and heals on repair', () => {
    const logDir = new LogDirState();
    let offline = 0;
    expect(logDir.writeError()).toBeNull();
    logDir.fail(() => (offline += 1));
    expect(offline).toBe(0);
    expect([logDir.writeError(), logDir.writeError()]).toEqual([
      'KAFKA_STORAGE_ERROR',
      'KAFKA_STORAGE_ERROR',
    ]);
    expect(offline).toBe(1);
    logDir.repair();
    expect(logDir.writeError()).toBeNull();
    expect(offline).toBe(1);
  });
});
