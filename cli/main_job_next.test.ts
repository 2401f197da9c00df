/**
 * Goal: the main job (`npm start`) ends with its wall time and a next command that writes a
 * report: the first failing seed replayed with `--report`, or the README's example seed when
 * every expectation was met, both through the one reproduce-line function (never a bare `npx
 * eos-sim`). Method: `mainJobEnding` on hand-built sweep summaries.
 */
import { describe, expect, it } from 'vitest';
import type { ScenarioSweep, SweepRun } from '../reports';
import { reproduceCommand } from '../sim/runner';
import { mainJobEnding, wallTimeText } from './main_job_next';

/** A sweep summary of `scenario` over seeds 1..20, failing at `failures`. */
function sweepOf(scenario: string, failures: readonly SweepRun[] = []): ScenarioSweep {
  const file = `scenarios/${scenario}.yaml`;
  return {
    scenario,
    file,
    seeds: { first: '1', last: '20' },
    seedsRun: 20,
    outcomes: {
      pass: 20 - failures.length,
      fail: failures.length,
      liveness: 0,
      'budget-exceeded': 0,
      'internal-error': 0,
    },
    anomalyCounts: [],
    detection: [],
    failures,
    failureCount: failures.length,
    outcomeFirstSeeds: {},
    expectationMet: failures.length === 0,
  };
}

const failing: SweepRun = {
  scenario: 'acks-all-leader-crash',
  file: 'scenarios/acks-all-leader-crash.yaml',
  seed: '7',
  outcome: 'fail',
  anomalyTypes: ['lost-write'],
  unexpectedAnomalyTypes: ['lost-write'],
  unmetExpectations: [],
  reproduce: reproduceCommand('scenarios/acks-all-leader-crash.yaml', '7'),
};

describe('the end of the main job', () => {
  it('all met: the wall time, then one seed of the example with a report', () => {
    const sweeps = [sweepOf('acks-all-leader-crash'), sweepOf('zombie-fencing')];
    expect(mainJobEnding({ wallMs: 95_340, seedsRun: 640, workers: 2, sweeps })).toBe(
      'wall time 95.3 s: 640 seeds on 2 workers\n' +
        'next: npx --offline --no-install eos-sim run scenarios/zombie-fencing.yaml --seed 1 ' +
        '--report zombie-fencing-1.html\n' +
        '      replays one seed and writes its report to zombie-fencing-1.html ' +
        '(docs/reports.md); README.md "Using it" lists the other commands\n',
    );
  });

  it('a failure: the first failing seed replayed with a report', () => {
    const sweeps = [sweepOf('zombie-fencing'), sweepOf('acks-all-leader-crash', [failing])];
    const text = mainJobEnding({ wallMs: 1_000, seedsRun: 40, workers: 1, sweeps });
    expect(text).toContain('wall time 1.0 s: 40 seeds on 1 worker\n');
    expect(text).toContain(
      'next: npx --offline --no-install eos-sim run scenarios/acks-all-leader-crash.yaml ' +
        '--seed 7 --report acks-all-leader-crash-7.html\n',
    );
  });

  it('writes minutes from two minutes on', () => {
    expect(wallTimeText(119_940)).toBe('119.9 s');
    expect(wallTimeText(125_400)).toBe('2 min 5 s');
  });
});
