/**
 * Goal: `eos-sim run FILE --seed N --until …` stops the run at the moment asked and prints the
 * cluster as it stands, with exact values on a pinned seed: in scenarios/zombie-fencing.yaml at
 * 5 s, A is paused mid-transaction (IN_TRANSACTION, producerId 1000, epoch 0), its coordinator
 * holds orders-tx Ongoing over orders-1 and orders-2, and those partitions' last stable offset is
 * held at A's first offset 0; at 20 s B owns the transactional.id at a later epoch while A still
 * believes epoch 0. `event:N` stops right after event N; `first-anomaly` stops at the first
 * anomaly of a known-bug seed. Exit 0, or 4 with the cluster where the event budget stopped the
 * replay; a bad `--until` or a clashing flag is a usage error (64).
 * Method: the CLI in-process (`main`), its `--json` state parsed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli';
import type { ClusterState } from '../../sim/runner';
import { parseUntil } from '../../cli/until';
import { runCli, scratchDir } from './cli_helpers';

const ZOMBIE = 'scenarios/zombie-fencing.yaml';

async function stateAt(file: string, seed: string, until: string): Promise<ClusterState> {
  const call = await runCli(main, ['run', file, '--seed', seed, '--until', until, '--json']);
  expect(call.code, call.stderr).toBe(0);
  return JSON.parse(call.stdout) as ClusterState;
}

function leaderOf(state: ClusterState, name: string) {
  const partition = state.partitions.find((p) => `${p.topic}-${p.partition}` === name);
  return partition?.replicas.find((replica) => replica.broker === partition.leader);
}

describe('parseUntil', () => {
  it('reads times to the microsecond, event indices and first-anomaly', () => {
    const at = (text: string) => {
      const parsed = parseUntil(text);
      return parsed.kind === 'limit' ? parsed.limit : parsed.kind;
    };
    expect(at('3.4s')).toEqual({ timeUs: 3_400_000 });
    expect(at('3400ms')).toEqual({ timeUs: 3_400_000 });
    expect(at('0.000001s')).toEqual({ timeUs: 1 });
    expect(at('1.5ms')).toEqual({ timeUs: 1500 });
    expect(at('7us')).toEqual({ timeUs: 7 });
    expect(at('event:12345')).toEqual({ eventIndex: 12345 });
    expect(at('first-anomaly')).toBe('first-anomaly');
    expect(() => parseUntil('1.5us')).toThrow(/at most microsecond precision/);
  });
});

describe('eos-sim run --until', () => {
  it('stops zombie-fencing seed 1 at 5 s with A paused in its transaction', async () => {
    const state = await stateAt(ZOMBIE, '1', '5s');
    expect(state).toMatchObject({ timeUs: 5_000_000, phase: 'workload', stoppedBy: '--until 5s' });
    expect(state.nodes.find((node) => node.id === 'A')?.status).toBe('paused');
    const a = state.clients.find((client) => client.name === 'A');
    expect(a).toMatchObject({
      status: 'paused',
      busy: true,
      producer: {
        transactionalId: 'orders-tx',
        state: 'IN_TRANSACTION',
        producerId: 1000,
        producerEpoch: 0,
      },
    });
    const transactions = state.coordinators.flatMap((c) => c.transactions);
    expect(transactions).toEqual([
      expect.objectContaining({
        transactionalId: 'orders-tx',
        producerId: 1000,
        producerEpoch: 0,
        state: 'Ongoing',
        partitions: ['orders-1', 'orders-2'],
      }),
    ]);
    expect(leaderOf(state, 'orders-1')).toMatchObject({
      logEndOffset: 3,
      highWatermark: 3,
      lastStableOffset: 0,
      openTransactions: [{ producerId: 1000, firstOffset: 0 }],
    });
    expect(leaderOf(state, 'orders-2')).toMatchObject({ logEndOffset: 5, lastStableOffset: 0 });
    expect(leaderOf(state, 'orders-2')?.log).toHaveLength(5);
  });

  it('prints the same moment for people, A paused and the LSO held', async () => {
    const call = await runCli(main, ['run', ZOMBIE, '--seed', '1', '--until', '5000ms']);
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('at 5 s after event 497 (workload phase)');
    expect(call.stdout).toContain('b2 leader: log start 0, LEO 3, HW 3, LSO 0; open transactions');
    expect(call.stdout).toContain(
      '  producer: transactional.id orders-tx, state IN_TRANSACTION, producerId 1000 epoch 0',
    );
    expect(call.stdout).toContain('orders-tx: Ongoing, producerId 1000 epoch 0');
  });

  it('at 20 s shows B at a later epoch of orders-tx while A still holds epoch 0', async () => {
    const state = await stateAt(ZOMBIE, '1', '20s');
    const producer = (name: string) => state.clients.find((c) => c.name === name)?.producer;
    expect(producer('A')).toMatchObject({ state: 'IN_TRANSACTION', producerEpoch: 0 });
    expect(producer('B')).toMatchObject({ state: 'READY', producerId: 1000, producerEpoch: 21 });
    const [orders] = state.coordinators.flatMap((c) => c.transactions);
    expect(orders).toMatchObject({ producerEpoch: 21, state: 'CompleteCommit' });
  });

  it('stops right after the event index asked', async () => {
    const state = await stateAt(ZOMBIE, '1', 'event:300');
    expect(state.eventsRun).toBe(300);
    expect(state.stoppedBy).toBe('--until event:300');
  });

  it('stops at the first anomaly of a known-bug seed', async () => {
    const file = 'scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml';
    const report = await runCli(main, ['run', file, '--seed', '2', '--json']);
    const anomalies = (JSON.parse(report.stdout) as { check: { anomalies: { timeUs?: number }[] } })
      .check.anomalies;
    const firstUs = Math.min(
      ...anomalies.flatMap((a) => (a.timeUs === undefined ? [] : [a.timeUs])),
    );
    expect(Number.isFinite(firstUs)).toBe(true);
    const state = await stateAt(file, '2', 'first-anomaly');
    expect(state.timeUs).toBe(firstUs);
    expect(state.stoppedBy).toMatch(/^--until first-anomaly: zombie-write at orders-/);
  });

  it('prints the cluster where the event budget stopped the replay, and exits 4', async () => {
    const scratch = scratchDir();
    try {
      const file = join(scratch.path, 'budget.yaml');
      const text = readFileSync(ZOMBIE, 'utf8').replace(/^run:$/m, 'run:\n  events.max: 1000');
      writeFileSync(file, text);
      const call = await runCli(main, ['run', file, '--seed', '1', '--until', '30s', '--json']);
      expect(call.code, call.stderr).toBe(4);
      const state = JSON.parse(call.stdout) as ClusterState;
      expect(state.eventsRun).toBe(1001);
      expect(state.stoppedBy).toBe(
        'its event budget (Run exceeded eventsMax: 1000 events), before --until 30s',
      );
      // Before its budget, a moment is reached as usual.
      expect((await stateAt(file, '1', 'event:500')).stoppedBy).toBe('--until event:500');
    } finally {
      scratch.remove();
    }
  });

  it('refuses a malformed moment and the flags that write a report', async () => {
    for (const until of ['3.4', '1.2345678s', 'event:0', 'soon']) {
      const call = await runCli(main, ['run', ZOMBIE, '--seed', '1', '--until', until]);
      expect(call.code).toBe(64);
      expect(call.stderr).toMatch(/^Usage error: --until /);
    }
    const clash = await runCli(main, [
      'run',
      ZOMBIE,
      '--seed',
      '1',
      '--until',
      '5s',
      '--report',
      '/tmp/x.md',
    ]);
    expect(clash.code).toBe(64);
    expect(clash.stderr).toContain('cannot be combined with --report');
  });
});
