/**
 * Goal: the CLI's pure parts behave at their edges: seed and seed-range parsing, the sweep
 * exit-code precedence, the first divergence between two event logs, the internal-error text
 * (stack only with --verbose), colour only on a TTY without `NO_COLOR`, and the console
 * renderer's colour switch.
 *
 * Method: call the helpers directly with hand-built values; one in-process `main` call with a
 * fake TTY checks the colour decision, with `NO_COLOR` stubbed through vitest.
 */
import { stripVTControlCharacters } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  EXIT_CODES,
  describeInternalError,
  exitCodeForSweep,
  firstDivergence,
  parseSeed,
  parseSeedRange,
  seedCount,
  seedsOf,
} from '../../cli/index';
import { renderRunReport, type ScenarioSweep, type SweepSummary } from '../../reports';
import { loadScenario } from '../../scenarios';
import { reproduceCommand, runScenario } from '../../sim/runner';
import { main } from '../../cli';
import { runCli, type CliCall } from './cli_helpers';

const cli = (argv: readonly string[], options: { isTTY?: boolean } = {}): Promise<CliCall> =>
  runCli(main, argv, options);

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('seeds', () => {
  it('accepts decimal u64 seeds and 40-hex hashes, and nothing else', () => {
    expect(parseSeed('0')).toBe('0');
    expect(parseSeed('18446744073709551615')).toBe('18446744073709551615');
    expect(parseSeed('A'.repeat(40))).toBe('a'.repeat(40));
    for (const bad of ['', ' 1', '1.0', '01', '18446744073709551616', 'a'.repeat(39), '0x10']) {
      expect(() => parseSeed(bad)).toThrow(/^Usage error: --seed must be/);
    }
  });

  it('parses ranges, iterates past safe integers, and rejects backwards ranges', () => {
    expect(parseSeedRange('1..3')).toEqual({ first: '1', last: '3' });
    expect(parseSeedRange('9')).toEqual({ first: '9', last: '9' });
    const high = parseSeedRange('18446744073709551614..18446744073709551615');
    expect([...seedsOf(high)]).toEqual(['18446744073709551614', '18446744073709551615']);
    expect(seedCount(parseSeedRange('1..20'))).toBe(20);
    expect(() => parseSeedRange('5..2')).toThrow('must not run backwards');
    expect(() => parseSeedRange('1..')).toThrow('must look like');
    expect(() => parseSeedRange('1..2000000')).toThrow('at most');
  });
});

function sweep(outcomes: Partial<ScenarioSweep['outcomes']>, detectionMet = true): ScenarioSweep {
  return {
    scenario: 's',
    file: 's.yaml',
    seeds: { first: '1', last: '1' },
    seedsRun: 1,
    outcomes: {
      pass: 0,
      fail: 0,
      liveness: 0,
      'budget-exceeded': 0,
      'internal-error': 0,
      ...outcomes,
    },
    anomalyCounts: [],
    detection: [
      { kind: 'duplicate', seedsDetected: 0, seedsRun: 1, percentMin: 90, met: detectionMet },
    ],
    failures: [],
    failureCount: 0,
    outcomeFirstSeeds: {},
    expectationMet: true,
  };
}

describe('reproduce commands', () => {
  it('quote a scenario path the shell would split or expand, and only such a path', () => {
    expect(reproduceCommand('scenarios/zombie-fencing.yaml', '7')).toBe(
      'npx --offline --no-install eos-sim run scenarios/zombie-fencing.yaml --seed 7',
    );
    expect(reproduceCommand('my scenarios/a $b.yaml', '7', true)).toBe(
      "npx --offline --no-install eos-sim run 'my scenarios/a $b.yaml' --seed 7 --swarm",
    );
    expect(reproduceCommand("it's.yaml", '7')).toBe(
      "npx --offline --no-install eos-sim run 'it'\\''s.yaml' --seed 7",
    );
  });
});

describe('exitCodeForSweep', () => {
  it('ranks internal error over fail over liveness over budget', () => {
    const summary = (...scenarios: ScenarioSweep[]): SweepSummary => ({ scenarios });
    expect(exitCodeForSweep(summary(sweep({ pass: 1 })))).toBe(EXIT_CODES.ok);
    expect(exitCodeForSweep(summary(sweep({ pass: 1 }, false)))).toBe(EXIT_CODES.fail);
    expect(exitCodeForSweep(summary(sweep({ 'budget-exceeded': 1 })))).toBe(4);
    expect(exitCodeForSweep(summary(sweep({ 'budget-exceeded': 1 }), sweep({ liveness: 1 })))).toBe(
      2,
    );
    expect(exitCodeForSweep(summary(sweep({ liveness: 1 }), sweep({ fail: 1 })))).toBe(1);
    expect(exitCodeForSweep(summary(sweep({ fail: 1 }), sweep({ 'internal-error': 1 })))).toBe(70);
  });
});

describe('determinism and internal errors', () => {
  it('finds the first divergence, including one run ending early', () => {
    expect(firstDivergence(['a', 'b'], ['a', 'b'])).toBeUndefined();
    expect(firstDivergence(['a', 'b'], ['a', 'c'])).toEqual({ index: 1, first: 'b', second: 'c' });
    expect(firstDivergence(['a'], ['a', 'x'])).toEqual({ index: 1, first: undefined, second: 'x' });
  });

  it('prints message, seed and reproduce command, and the stack only when verbose', () => {
    const error = new Error('Invariant broke');
    const context = { seed: '42', file: 'scenarios/x.yaml' };
    const text = describeInternalError(error, context);
    expect(text).toBe(
      'Internal error: Invariant broke\nseed=42\n' +
        'reproduce: npx --offline --no-install eos-sim run scenarios/x.yaml --seed 42\n',
    );
    expect(describeInternalError(error, { ...context, verbose: true })).toMatch(/^\s+at /m);
  });
});

describe('colour', () => {
  const report = runScenario(loadScenario('scenarios/zombie-fencing.yaml'), { seed: '1' }).report;

  it('renders ANSI colour only when asked, with the same visible text', () => {
    const plain = renderRunReport(report, { colour: false });
    const coloured = renderRunReport(report, { colour: true });
    expect(plain).not.toContain('\u001b[');
    expect(coloured).toContain('\u001b[');
    expect(stripVTControlCharacters(coloured)).toBe(plain);
  });

  it('colours a TTY, but not when NO_COLOR is set nor when stdout is not a TTY', async () => {
    const argv = ['run', 'scenarios/zombie-fencing.yaml', '--seed', '1'];
    vi.stubEnv('NO_COLOR', '');
    expect((await cli(argv, { isTTY: true })).stdout).toContain('\u001b[');
    vi.stubEnv('NO_COLOR', '1');
    expect((await cli(argv, { isTTY: true })).stdout).not.toContain('\u001b[');
    vi.stubEnv('NO_COLOR', '');
    expect((await cli(argv, { isTTY: false })).stdout).not.toContain('\u001b[');
  });
});
