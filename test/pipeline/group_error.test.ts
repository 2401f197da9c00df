/**
 * Goal: a pipeline whose consumer hits a fatal group error says so. Kafka's poll() throws it
 * (INVALID_SESSION_TIMEOUT when session.timeout.ms is outside the broker's
 * group.min.session.timeout.ms..group.max.session.timeout.ms, KIP-447;
 * KafkaProducer.sendOffsetsToTransaction); the application closes. Method: eos-pipeline with
 * session.timeout.ms 1000 (default minimum 6000), seed 1: the history records the failed polls and
 * the liveness verdict names the error.
 */
import { describe, expect, it } from 'vitest';
import { runEdited } from './pipeline_helpers';

describe('a fatal group error in a pipeline', () => {
  const run = runEdited('eos-pipeline', '1', [
    ['session.timeout.ms: 10000', 'session.timeout.ms: 1000\n      heartbeat.interval.ms: 300'],
  ]);

  it('records a failed poll with INVALID_SESSION_TIMEOUT for every pipeline instance', () => {
    const failed = run.history.filter((op) => op.f === 'poll' && op.type === 'fail');
    expect(new Set(failed.map((op) => op.client))).toEqual(new Set(['P1', 'P2', 'P3']));
    expect(new Set(failed.map((op) => op.error))).toEqual(new Set(['INVALID_SESSION_TIMEOUT']));
    const committed = run.history.filter((op) => op.f === 'txn' && op.type === 'ok');
    expect(committed).toEqual([]);
  });

  it('names the error in the liveness verdict', () => {
    expect(run.report.outcome).toBe('liveness');
    expect(run.report.liveness.detail).toMatch(
      /pipelines not caught up: .*\(poll failed: (.*, )?P1 INVALID_SESSION_TIMEOUT \(\d+ times\)/,
    );
  });
});
