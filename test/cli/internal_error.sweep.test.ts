/**
 * Goal: when the simulator itself fails (an `AssertionError` from the kernel or the model), the
 * CLI exits 70 and prints `Internal error: <message>`, the seed and the reproduce command on
 * stderr, with the stack only under `--verbose`; a sweep carries on past the failing seed and
 * reports it with its reproduce command.
 *
 * Method: replace the runner's `runScenario` with one that throws an `AssertionError` for seed
 * 2 and runs normally otherwise (vitest module mock, this file only), then call `main`
 * in-process with captured streams. Sweeps run in worker threads the mock does not reach, so
 * the sweep test uses the worker's test-only `EOS_SIM_TEST_FAULT` hook instead.
 */
import { describe, expect, it, vi } from 'vitest';
import { AssertionError } from '../../sim/kernel';
import { main } from '../../cli';
import { runCli, scratchDir, type CliCall } from './cli_helpers';

const cli = (argv: readonly string[], options: { isTTY?: boolean } = {}): Promise<CliCall> =>
  runCli(main, argv, options);

vi.mock('../../sim/runner', async (importOriginal) => {
  const runner = await importOriginal<typeof import('../../sim/runner')>();
  return {
    ...runner,
    runScenario: (...args: Parameters<typeof runner.runScenario>) => {
      if (args[1].seed === '2') throw new AssertionError('Leader epoch went backwards: 3 -> 2');
      return runner.runScenario(...args);
    },
  };
});

const ZOMBIE = 'scenarios/zombie-fencing.yaml';

describe('internal errors', () => {
  it('exits 70 with message, seed and reproduce command, and no stack', async () => {
    const { code, stdout, stderr } = await cli(['run', ZOMBIE, '--seed', '2']);
    expect(code).toBe(70);
    expect(stdout).toBe('seed=2\n');
    expect(stderr).toBe(
      'Internal error: Leader epoch went backwards: 3 -> 2\nseed=2\n' +
        `reproduce: npx eos-sim run ${ZOMBIE} --seed 2\n`,
    );
  });

  it('prints the stack with --verbose', async () => {
    const { code, stderr } = await cli(['run', ZOMBIE, '--seed', '2', '--verbose']);
    expect(code).toBe(70);
    expect(stderr).toMatch(/^\s+at /m);
  });

  it('keeps sweeping past the failing seed and exits 70', async () => {
    // Sweeps run in worker threads, which this file's module mock does not reach: the worker's
    // test-only hook makes seed 2 throw instead.
    const scratch = scratchDir();
    vi.stubEnv('EOS_SIM_TEST_FAULT', 'throw:2');
    try {
      const argv = ['sweep', ZOMBIE, '--seeds', '1..3', '--workers', '1', '--out', scratch.path];
      const { code, stdout } = await cli(argv);
      expect(code).toBe(70);
      expect(stdout).toContain(
        'INTERNAL ERROR zombie-fencing seed=2: Internal error: Test fault: seed 2 throws',
      );
      expect(stdout).toContain('outcomes: pass 2, internal error 1');
    } finally {
      vi.unstubAllEnvs();
      scratch.remove();
    }
  });
});
