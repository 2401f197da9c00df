/**
 * Goal: pin that a history stops at its bound with the error the runner reports as a budget stop
 * (exit 4), not an internal error, and that the operations before it are kept and numbered.
 * Method: a recorder bounded at two operations is given three.
 */
import { describe, expect, it } from 'vitest';
import { HistoryBoundExceededError, HistoryRecorder } from './recorder';

describe('HistoryRecorder', () => {
  it('numbers operations and throws HistoryBoundExceededError at its bound', () => {
    const recorder = new HistoryRecorder(2);
    const op = { timeUs: 0, type: 'invoke', process: 0, client: 'P', f: 'send', value: [] };
    const append = () => recorder.append(op as unknown as Parameters<HistoryRecorder['append']>[0]);
    expect(append().index).toBe(0);
    expect(append().index).toBe(1);
    expect(append).toThrow(HistoryBoundExceededError);
    expect(append).toThrow('History exceeded historyOpsMax: 2 operations');
    expect(recorder.history).toHaveLength(2);
  });
});
