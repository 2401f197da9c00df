/**
 * Goal: prove the mutants search's skip both ways. A switch run whose control never consulted
 * the switch is not run and is never a catch, a consulted one is run and judged as before, and
 * with `runUnreached` the search fails on a skipped run that would have executed other events
 * (the check that the skip drops no catch). Then, on real runs of the generic bases, that the
 * claim under the skip holds: every switch a control did not consult runs the same events when
 * turned on (same event hash). Method: made-up runs with `reached` lists for the search; real
 * swarm runs of seed 1 on the tv0 and idempotent bases, every switch each, for the claim (the
 * sweeps tier runs `eos-sim mutants --run-unreached` over more seeds and every base).
 */
import { describe, expect, it } from 'vitest';
import { inProcessRunner, searchMutants, type MutantTask } from '../../cli/mutant_search';
import { basesOf, controlBases, genericBases, type MutantRun } from '../../cli/mutants';
import { BUG_IDS, loadScenario, type BugId } from '../../scenarios';

const FILE = 'scenarios/transactions-random-faults.yaml';

describe('eos-sim mutants skips a switch its control never consulted', () => {
  const bases = genericBases(loadScenario(FILE)).filter((base) => base.label === 'tv0');
  const ids: BugId[] = ['KAFKA-6119', 'KAFKA-9144'];
  const seeds = ['1', '2', '3'];

  /** Controls consult KAFKA-6119 at seed 3 only, KAFKA-9144 never; 6119 fails at 3. */
  function runner(differingUnreached: boolean) {
    const asked: string[] = [];
    const run = (task: MutantTask): Promise<MutantRun> => {
      asked.push(`${task.bug ?? 'control'}#${task.seed}`);
      const reached = task.seed === '3' ? ['KAFKA-6119'] : [];
      if (task.bug === null) {
        return Promise.resolve({
          outcome: 'pass',
          eventHash: `c${task.seed}`,
          kind: 'pass',
          reached,
        });
      }
      const caught = task.bug === 'KAFKA-6119' && task.seed === '3';
      const other = caught || (differingUnreached && task.seed === '2');
      return Promise.resolve({
        outcome: caught ? 'fail' : 'pass',
        eventHash: other ? `m${task.seed}` : `c${task.seed}`,
        kind: caught ? 'lost-write' : 'pass',
        reached,
      });
    };
    return { run, asked };
  }

  it('runs only the consulted switch runs, and finds the same catch', async () => {
    const { run, asked } = runner(false);
    const output = await searchMutants({ ids, bases, seeds, run, concurrency: 2 });
    expect(asked.filter((name) => !name.startsWith('control')).sort()).toEqual(['KAFKA-6119#3']);
    expect(output.skipped).toBe(5);
    const [caught, missed] = output.results;
    expect(caught).toMatchObject({ caught: true, seed: '3', kind: 'lost-write', reached: 1 });
    expect(missed).toMatchObject({ caught: false, seedsRun: 3, reached: 0 });
  });

  it('runs the skipped runs too with runUnreached, and gives the same table', async () => {
    const skipping = await searchMutants({
      ids,
      bases,
      seeds,
      run: runner(false).run,
      concurrency: 1,
    });
    const { run, asked } = runner(false);
    const all = await searchMutants({ ids, bases, seeds, run, concurrency: 1, runUnreached: true });
    expect(all.results).toEqual(skipping.results);
    expect(asked.filter((name) => name.startsWith('KAFKA-9144'))).toHaveLength(3);
  });

  it('fails with runUnreached when an unconsulted switch changed the events', async () => {
    const { run } = runner(true);
    await expect(
      searchMutants({ ids, bases, seeds, run, concurrency: 1, runUnreached: true }),
    ).rejects.toThrow(/KAFKA-6119 on tv0 at seed 2 executed other events than its control/);
  });
});

describe('a switch its control never consulted changes no event (real runs)', () => {
  const all = controlBases(BUG_IDS, genericBases(loadScenario(FILE)));
  const bases = all.filter((base) => ['tv0', 'idempotent'].includes(base.label));
  const run = inProcessRunner(all);

  it('runs every unconsulted switch of seed 1 to the control event hash', async () => {
    let unconsulted = 0;
    for (const base of bases) {
      const control = await run({ base: base.label, bug: null, seed: '1' });
      expect(control.reached).toBeDefined();
      for (const id of BUG_IDS) {
        if (!basesOf(id, [base]).some((tried) => tried.label === base.label)) continue;
        if (control.reached?.includes(id) === true) continue;
        unconsulted += 1;
        const mutant = await run({ base: base.label, bug: id, seed: '1' });
        expect({ id, base: base.label, eventHash: mutant.eventHash }).toEqual({
          id,
          base: base.label,
          eventHash: control.eventHash,
        });
      }
    }
    expect(unconsulted).toBeGreaterThan(20);
  });
});
