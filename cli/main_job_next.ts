/**
 * The last lines of the main job (`npm start`): how long it took, and where to go next. The main
 * job writes no files, so the next step is a command that writes a report: the first seed that
 * did not pass, replayed with `--report`, or, when every expectation was met, one seed of the
 * README's example. The wall time is the CLI's own measurement (the simulator never reads a
 * clock).
 */
import type { ScenarioSweep } from '../reports';
import { eosSimCommand, shellWord } from '../sim/runner';

/** The scenario the README's examples start with, suggested when everything passed. */
const EXAMPLE_SCENARIO = 'zombie-fencing';

/** `95.3 s`, or `2 min 5 s` from two minutes on. */
export function wallTimeText(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 120) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** A report file name for a scenario and seed, safe as a file name. */
function reportName(scenario: string, seed: string): string {
  return `${scenario.replace(/[^A-Za-z0-9_.-]+/g, '_')}-${seed}.html`;
}

/** The next command and what it does. */
function nextStep(sweeps: readonly ScenarioSweep[]): { command: string; does: string } {
  const unmet = sweeps.find((sweep) => !sweep.expectationMet);
  const failed = unmet?.failures[0];
  if (failed !== undefined) {
    const report = reportName(failed.scenario, failed.seed);
    return {
      command: `${failed.reproduce} --report ${shellWord(report)}`,
      does: `replays ${failed.scenario} seed ${failed.seed} and writes its report to ${report}`,
    };
  }
  if (unmet !== undefined) {
    return {
      command: eosSimCommand(['sweep', unmet.file]),
      does: `the detection rates of ${unmet.scenario}, seed by seed (docs/sweeps.md)`,
    };
  }
  const example = sweeps.find((sweep) => sweep.scenario === EXAMPLE_SCENARIO) ?? sweeps[0];
  if (example === undefined) return { command: eosSimCommand(['scenarios']), does: 'lists them' };
  const report = reportName(example.scenario, example.seeds.first);
  return {
    command: eosSimCommand([
      'run',
      example.file,
      '--seed',
      example.seeds.first,
      '--report',
      report,
    ]),
    does: `replays one seed and writes its report to ${report} (docs/reports.md)`,
  };
}

/**
 * The closing lines: wall time with the seeds and workers, then the next command.
 * @example
 * mainJobEnding({ wallMs: 95_300, seedsRun: 640, workers: 2, sweeps })
 * // 'wall time 95.3 s: 640 seeds on 2 workers\nnext: npx … --report zombie-fencing-1.html\n…'
 */
export function mainJobEnding(input: {
  readonly wallMs: number;
  readonly seedsRun: number;
  readonly workers: number;
  readonly sweeps: readonly ScenarioSweep[];
}): string {
  const { command, does } = nextStep(input.sweeps);
  const workers = `${input.workers} worker${input.workers === 1 ? '' : 's'}`;
  return (
    `wall time ${wallTimeText(input.wallMs)}: ${input.seedsRun} seeds on ${workers}\n` +
    `next: ${command}\n` +
    `      ${does}; README.md "Using it" lists the other commands\n`
  );
}
