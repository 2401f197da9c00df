/**
 * Goal: pin maybeConvertOffsetCommitError (offsetCommitErrorFor) on both sides of KAFKA-16386's
 * broker half: a TxnOffsetCommit whose verification failed in transport is answered
 * COORDINATOR_LOAD_IN_PROGRESS since apache/kafka#15559 (3.7.1, 3.8.0), NETWORK_EXCEPTION in
 * 3.7.0 (the switch on); the older conversions are the same either way. Method: the function.
 */
import { describe, expect, it } from 'vitest';
import { offsetCommitErrorFor } from './group_offsets';

describe('offsetCommitErrorFor (KAFKA-16386 broker half)', () => {
  it('converts NETWORK_EXCEPTION to COORDINATOR_LOAD_IN_PROGRESS once fixed', () => {
    expect(offsetCommitErrorFor('NETWORK_EXCEPTION')).toBe('COORDINATOR_LOAD_IN_PROGRESS');
    expect(offsetCommitErrorFor('NETWORK_EXCEPTION', false)).toBe('COORDINATOR_LOAD_IN_PROGRESS');
  });

  it('bug on: passes NETWORK_EXCEPTION to the client as it is', () => {
    expect(offsetCommitErrorFor('NETWORK_EXCEPTION', true)).toBe('NETWORK_EXCEPTION');
  });

  it('near-miss: the conversions older than the fix do not depend on the switch', () => {
    for (const unconverted of [false, true]) {
      expect(offsetCommitErrorFor('NOT_ENOUGH_REPLICAS', unconverted)).toBe(
        'COORDINATOR_NOT_AVAILABLE',
      );
      expect(offsetCommitErrorFor('NOT_LEADER_OR_FOLLOWER', unconverted)).toBe('NOT_COORDINATOR');
      expect(offsetCommitErrorFor('CONCURRENT_TRANSACTIONS', unconverted)).toBe(
        'CONCURRENT_TRANSACTIONS',
      );
    }
  });
});
