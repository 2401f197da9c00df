/**
 * Goal: pin what the swarm triage of `scenarios/zombie-fencing.yaml` found, one seed each.
 * Method: draw the seed as `sweep --swarm` does and assert the outcome Kafka gives there.
 */
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../scenarios';
import { drawSwarm, runScenario } from '../../sim/runner';

const ZOMBIE = 'scenarios/zombie-fencing.yaml';
const REPLICATED = 'scenarios/zombie-fencing-replicated.yaml';

function runSwarm(seed: string, file = ZOMBIE) {
  const { scenario, parameters } = drawSwarm(loadScenario(file), seed);
  return runScenario(scenario, { seed, swarm: parameters, messageLog: false });
}

describe('a retry waits out its backoff after the clock went back (Sender.runOnce)', () => {
  it('swarm seed 165: B retries once its +19.8 s clock skew ends, and commits', () => {
    // B's backoff was stamped in its skewed clock; when the skew ended its retry timer fired
    // before that time, and nothing woke the sender again: A and B stalled for the whole run.
    const { report } = runSwarm('165');
    expect(report.liveness).toMatchObject({ converged: true });
    expect(report.outcome).toBe('pass');
  });
});

describe('a hanging transaction Kafka leaves open is explained', () => {
  it('swarm seed 205 of transactions-random-faults: the marker truncated after an election', () => {
    // zombie-fencing seed 451 showed this until the heartbeat channel reconnected (its ABORT
    // marker now reaches b3 before the forced unclean election, and the seed passes).
    const { report } = runSwarm('205', 'scenarios/transactions-random-faults.yaml');
    expect(report.outcome).toBe('liveness');
    const detail = report.liveness.detail;
    expect(detail).toContain(
      'orders-2 on b1 (LSO 28, LEO 31; a hanging transaction of producerId 1000',
    );
    expect(detail).toMatch(/its marker was truncated away on b2 at [0-9.]+ s \(diverging-epoch\)/);
    expect(detail).toContain('Kafka writes a marker once');
    const unclean = report.faults.map((fault) => fault.description);
    expect(
      unclean.some((text) => text.startsWith('forced unclean leader election of orders-2')),
    ).toBe(true);
  });

  it('swarm seed 451 of zombie-fencing: the marker replicated before the forced election', () => {
    const { report } = runSwarm('451');
    expect(report.faults.map((fault) => fault.description)).toContain(
      'forced unclean leader election of orders-0: b3 elected',
    );
    expect(report.outcome).toBe('pass');
  });
});

describe('swarm expectations and invariants follow what Kafka does', () => {
  // Seed 17 showed this until partitions held bytes on open connections (TCP) instead of
  // dropping them; seed 13 shows it since.
  it('swarm seed 13: A stops on a permitted INVALID_TXN_STATE; expect.fenced is dropped', () => {
    const { report } = runSwarm('13');
    expect(report.check.anomalyTypes).toEqual(['fatal-txn-error']);
    const fenced = report.expectations.find((item) => item.name === 'A is fenced');
    expect(fenced).toMatchObject({ met: true });
    expect(fenced?.detail).toContain('dropped under swarm');
    expect(report.outcome).toBe('pass');
  });

  it('swarm seed 23: a fresh producerId below the last is no invariant violation', () => {
    const { report } = runSwarm('23');
    expect(report.check.anomalyTypes).not.toContain('invariant');
  });
});

describe('the transaction log can lose the fence (last-known-leader election, power loss)', () => {
  it('replicated swarm seed 2817: A is never fenced; expect.fenced is dropped, A hangs', () => {
    // b1 lost power with __transaction_state-48's tail unflushed and was elected its last known
    // leader (KIP-966), so the coordinator reloaded orders-tx in PrepareAbort at epoch 1 after
    // granting epoch 4 to B. A's EndTxn at epoch 0 is then a valid TV2 retry answered
    // CONCURRENT_TRANSACTIONS for good, behind an ABORT marker orders-0 refuses.
    const { report } = runSwarm('2817', REPLICATED);
    const fenced = report.expectations.find((item) => item.name === 'A is fenced');
    expect(fenced?.detail).toContain(
      'dropped under swarm: __transaction_state-48 lost records (power-loss truncation on b1',
    );
    expect(report.guarantee.verdicts.every((verdict) => verdict.verdict === 'permitted')).toBe(
      true,
    );
    expect(report.outcome).toBe('liveness');
    expect(report.liveness.detail).toContain(
      'answers every InitProducerId with CONCURRENT_TRANSACTIONS',
    );
  });
});

describe('a producer stopped by a fatal error during the probe is not waited for', () => {
  it('replicated swarm seed 2561: B stops on a permitted INVALID_TXN_STATE, the run passes', () => {
    // A's restarted instance fenced B as the faults healed; B's commit raced the fence's abort
    // (KAFKA-20785). Waiting for B kept the probe open while A committed back to back, so the
    // last stable offset was never seen at the high watermark and the run read as a stall.
    const { report } = runSwarm('2561', REPLICATED);
    expect(report.check.anomalyTypes).toEqual(['fatal-txn-error']);
    expect(report.guarantee.verdicts[0]?.verdict).toBe('permitted');
    expect(report.liveness.detail).toContain(
      'B stopped during the probe after the fatal INVALID_TXN_STATE',
    );
    expect(report.outcome).toBe('pass');
  });
});

describe('a linger wakeup stamped in a clock that ran ahead (RecordAccumulator.ready)', () => {
  it('unclean-election-disabled swarm seed 1313: P sends its batch after its skew ends', () => {
    // P's clock ran 8.8 s ahead until 32.48 s; the batch opened then waited for a wakeup that
    // had already fired, and 377 records sat in the accumulator until the probe at 124 s.
    const { report } = runSwarm('1313', 'scenarios/unclean-election-disabled.yaml');
    expect(report.liveness.converged).toBe(true);
    expect(report.outcome).toBe('pass');
  });
});

describe('a JoinGroup sent to a coordinator that lost power waits its whole timeout', () => {
  it('eos-pipeline swarm seed 3555: the group rejoins after max.poll.interval.ms + 5 s', () => {
    // P1, P2 and P3 joined at b1 from 23 s to 28 s; b1 lost power at 30.8 s, so the JoinGroups
    // sat on half-open connections until 305 s passed (AbstractCoordinator, JOIN_GROUP_TIMEOUT_
    // LAPSE). The probe window now covers that wait, and the group catches up at 332 s.
    const { report } = runSwarm('3555', 'scenarios/eos-pipeline.yaml');
    expect(report.liveness.converged).toBe(true);
    expect(report.outcome).toBe('pass');
  });
});
