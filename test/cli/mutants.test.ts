/**
 * Goal: pin `eos-sim mutants`' parts that need no long search: the generic bases (the newest
 * release's switches, transaction version 0 without verification, an idempotent base writing
 * the same records), which bases each switch is tried on, the control rule that decides a catch
 * (both ways: a catch whose control fails or runs the same events is rejected, a stall counts
 * under the same rule), the search's first catch and its independence from the number of runs
 * under way and the order they finish in, the table's columns, and the usage error for a switch
 * that does not exist. Method: the functions of cli/mutants.ts and cli/mutant_search.ts on a
 * loaded scenario and on made-up runs, and the CLI in-process for the error. Searches with real
 * runs are in test/cli/mutants.sweep.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { searchMutants, type MutantTask } from '../../cli/mutant_search';
import {
  basesOf,
  genericBases,
  judgeCatch,
  renderMutantTable,
  type MutantRun,
} from '../../cli/mutants';
import { bugsOf, loadScenario, NEWEST_KAFKA_VERSION, type BugId } from '../../scenarios';
import { runCli } from './cli_helpers';

const FILE = 'scenarios/transactions-random-faults.yaml';

const pass = (eventHash: string): MutantRun => ({ outcome: 'pass', eventHash, kind: 'pass' });
const fail = (eventHash: string, kind = 'duplicate'): MutantRun => ({
  outcome: 'fail',
  eventHash,
  kind,
});

describe('eos-sim mutants bases', () => {
  const bases = genericBases(loadScenario(FILE));

  it('tries each switch on the newest release, the pre-KIP-890 protocol and idempotence', () => {
    expect(bases.map((base) => base.label)).toEqual(['tv2', 'tv0', 'idempotent']);
    const [tv2, tv0, idempotent] = bases;
    expect(tv0?.scenario.protocol.transactionVersion).toBe(0);
    expect(tv0?.scenario.broker.transactionPartitionVerificationEnable).toBe(false);
    for (const base of bases) expect(base.scenario.bugs).toEqual(bugsOf(NEWEST_KAFKA_VERSION));
    // KAFKA-14034 has no released fix: on in the newest release, so on in every base.
    expect(tv2?.scenario.bugs['KAFKA-14034']).toBe(true);
    expect(tv2?.scenario.bugs['KAFKA-6119']).toBe(false);
    const producers = idempotent?.scenario.clients.filter((client) => client.role === 'producer');
    expect(producers?.map((client) => client.name)).toEqual(['T1', 'T2']);
    for (const producer of producers ?? []) {
      if (producer.role !== 'producer') continue;
      expect(producer.settings.transactionalId).toBeNull();
      expect(producer.settings.enableIdempotence).toBe(true);
      // 80 transactions of 3 records and 80 of 4, written as single sends.
      expect(producer.workload).toMatchObject({ type: 'sends' });
    }
    const sends = (producers ?? []).map((client) =>
      client.role === 'producer' && client.workload.type === 'sends' ? client.workload.sends : 0,
    );
    expect(sends).toEqual([240, 320]);
    const consumers = idempotent?.scenario.clients.filter((client) => client.role === 'consumer');
    expect(consumers?.map((client) => client.name)).toEqual(['committed', 'uncommitted']);
  });

  it('tries a librdkafka bug with librdkafka producers where librdkafka can run', () => {
    const labels = basesOf('confluentinc/librdkafka#3575', bases).map((base) => base.label);
    expect(labels).toEqual(['tv0-librdkafka', 'idempotent-librdkafka']);
    const [tv0] = basesOf('confluentinc/librdkafka#4953', bases);
    const producer = tv0?.scenario.clients.find((client) => client.role === 'producer');
    expect(producer?.role === 'producer' && producer.settings.client?.flavour).toBe('librdkafka');
  });

  it('tries a Go client bug with its client: franz-go on every base, sarama idempotent', () => {
    const franzGo = basesOf('twmb/franz-go#1217', bases).map((base) => base.label);
    expect(franzGo).toEqual(['tv2-franz-go', 'tv0-franz-go', 'idempotent-franz-go']);
    const [sarama, ...others] = basesOf('IBM/sarama#1661', bases);
    expect(others).toEqual([]);
    expect(sarama?.label).toBe('idempotent-sarama');
    const producer = sarama?.scenario.clients.find((client) => client.role === 'producer');
    expect(producer?.role === 'producer' && producer.settings).toMatchObject({
      maxInFlightRequestsPerConnection: 1,
      retries: 3,
      client: { flavour: 'sarama', keepFailedSequence: false },
    });
  });

  it('tries a Kafka bug on every base, and not at all one every release has', () => {
    expect(basesOf('KAFKA-6119', bases).map((base) => base.label)).toEqual(BASE_LABELS);
    expect(basesOf('KAFKA-14034', bases)).toEqual([]);
  });
});

const BASE_LABELS = ['tv2', 'tv0', 'idempotent'];

describe('eos-sim mutants control rule', () => {
  it('counts a failing run as a catch when its control passes and runs other events', () => {
    expect(judgeCatch(fail('a'), pass('b'))).toEqual({ caught: true, kind: 'duplicate' });
  });

  it('counts a stall only under the same rule', () => {
    const stall: MutantRun = { outcome: 'liveness', eventHash: 'a', kind: 'liveness' };
    expect(judgeCatch(stall, pass('b'))).toEqual({ caught: true, kind: 'liveness' });
    expect(judgeCatch(stall, { ...stall, eventHash: 'b' })).toEqual({
      caught: false,
      reason: 'control-failed',
    });
  });

  it('rejects a catch whose control fails, or that runs the same events', () => {
    expect(judgeCatch(fail('a'), fail('b'))).toEqual({ caught: false, reason: 'control-failed' });
    expect(judgeCatch(fail('a'), pass('a'))).toEqual({ caught: false, reason: 'same-events' });
  });

  it('rejects a catch of a kind the control found too, even permitted there', () => {
    // The switch took the kind out of the permissions; Kafka made that anomaly without it too.
    const permitted: MutantRun = { ...pass('b'), found: ['epoch-bump-duplicate'] };
    const mutant = fail('a', 'epoch-bump-duplicate');
    expect(judgeCatch(mutant, permitted)).toEqual({ caught: false, reason: 'control-has-kind' });
    expect(judgeCatch(fail('a', 'duplicate'), permitted)).toEqual({
      caught: true,
      kind: 'duplicate',
    });
  });

  it('never counts a run the wall clock or an internal error stopped', () => {
    const timeout: MutantRun = { outcome: 'budget-exceeded', eventHash: '', kind: 'budget' };
    const error: MutantRun = { outcome: 'internal-error', eventHash: 'x', kind: 'internal' };
    expect(judgeCatch(timeout, pass('b'))).toEqual({ caught: false, reason: 'not-judged' });
    expect(judgeCatch(error, pass('b'))).toEqual({ caught: false, reason: 'not-judged' });
  });
});

/**
 * Made-up runs: the control of every base passes except on tv0 at seed 2; KAFKA-6119 fails on
 * tv0 at seed 2 (rejected: its control failed) and on idempotent at seed 3 (the catch);
 * KAFKA-9144 fails at seed 1 on tv2 with the control's events (rejected) and never after.
 */
function madeUp(task: MutantTask): MutantRun {
  const where = `${task.bug ?? 'control'}@${task.base}#${task.seed}`;
  if (where === 'control@tv0#2') return fail('c', 'liveness');
  if (task.bug === null) return pass(`control-${task.base}-${task.seed}`);
  if (where === 'KAFKA-6119@tv0#2' || where === 'KAFKA-6119@idempotent#3') return fail(where);
  if (where === 'KAFKA-9144@tv2#1') return fail('control-tv2-1');
  return pass(`control-${task.base}-${task.seed}`);
}

/** Resolves `madeUp` after a delay that scrambles the order runs finish in. */
function scrambled(task: MutantTask): Promise<MutantRun> {
  const delay = (task.seed.length * 7 + task.base.length * 13 + (task.bug?.length ?? 0)) % 5;
  return new Promise((resolve) => setTimeout(() => resolve(madeUp(task)), delay));
}

describe('eos-sim mutants search', () => {
  const bases = genericBases(loadScenario(FILE));
  const ids: BugId[] = ['KAFKA-6119', 'KAFKA-9144', 'KAFKA-14034'];
  const seeds = ['1', '2', '3', '4'];

  it('finds the first catch past a rejected one, and reports the unclean base', async () => {
    const output = await searchMutants({ ids, bases, seeds, run: scrambled, concurrency: 1 });
    const [caught, missed, unfixed] = output.results;
    expect(caught).toMatchObject({ caught: true, seed: '3', seedsRun: 3, base: 'idempotent' });
    expect(caught?.rejected).toEqual({ 'control-failed': 1 });
    expect(missed).toMatchObject({ caught: false, seedsRun: 4, rejected: { 'same-events': 1 } });
    expect(unfixed).toMatchObject({ caught: false, seedsRun: 0 });
    expect(unfixed?.note).toContain('on in the newest release');
    const tv0 = output.controls.find((check) => check.label === 'tv0');
    expect(tv0).toEqual({ label: 'tv0', seedsRun: 4, failures: [{ seed: '2', kind: 'liveness' }] });
  });

  it('gives the same results with any number of runs under way', async () => {
    const one = await searchMutants({ ids, bases, seeds, run: scrambled, concurrency: 1 });
    for (const concurrency of [2, 7, 64]) {
      const many = await searchMutants({ ids, bases, seeds, run: scrambled, concurrency });
      expect(many.results).toEqual(one.results);
      expect(many.controls).toEqual(one.controls);
    }
  });

  it('reports each switch once when settled, and each seed when its runs are done', async () => {
    const events: string[] = [];
    await searchMutants({
      ids,
      bases,
      seeds,
      run: scrambled,
      concurrency: 3,
      onEvent: (event) =>
        events.push(event.type === 'seed' ? `seed ${event.seed}` : event.result.id),
    });
    expect(events.filter((event) => event.startsWith('KAFKA'))).toHaveLength(3);
    expect(events.filter((event) => event.startsWith('seed'))).toEqual(
      seeds.map((seed) => `seed ${seed}`),
    );
  });
});

describe('eos-sim mutants table and usage', () => {
  it('prints one row per switch with the seeds to its first catch', () => {
    const table = renderMutantTable([
      { id: 'KAFKA-6119', caught: true, seedsRun: 3, seed: '3', kind: 'lost-write', base: 'tv0' },
      {
        id: 'KAFKA-1211',
        caught: false,
        seedsRun: 20,
        seed: null,
        kind: null,
        base: null,
        reached: 7,
        rejected: { 'control-failed': 2 },
      },
    ]);
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^switch\s+\| caught \| seeds to first catch \| kind\s+\| base \| seed/,
    );
    expect(lines[0]).toMatch(/\| seed \| runs reaching it \| notes$/);
    expect(lines[1]).toMatch(
      /^KAFKA-6119 \| yes\s+\| 3\s+\| lost-write \| tv0\s+\| 3\s+\| -\s+\| -$/,
    );
    expect(lines[2]).toMatch(
      /^KAFKA-1211 \| no\s+\| none in 20\s+\| -.*\| 7\s+\| control-failed 2$/,
    );
  });

  it('refuses a switch that is not in the registry with one usage line', async () => {
    const { code, stderr } = await runCli(main, ['mutants', '--switch', 'KAFKA-1']);
    expect(code).toBe(64);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--switch must name bug switches');
  });
});
