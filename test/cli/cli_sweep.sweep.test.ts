/**
 * Goal: `eos-sim sweep` keeps its contract with users and CI (sweeps tier: each test starts the
 * sweep's worker pool): a summary per scenario, failing seeds streamed with a paste-ready
 * reproduce command and exit 1, scenario names that would share an artifact folder refused with
 * exit 64, and `--json` printing the summary. Method: call `main` in-process with captured
 * streams on the bundled zombie-fencing files and on files derived from them in a temporary
 * directory; seeds are fixed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { runCli, editedScenario, scratchDir, type CliCall } from './cli_helpers';

const cli = (argv: readonly string[]): Promise<CliCall> => runCli(main, argv);

const ZOMBIE = 'scenarios/zombie-fencing.yaml';
const ZOMBIE_BUG = 'scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml';

const scratch = scratchDir();
afterAll(() => scratch.remove());

describe('eos-sim sweep', () => {
  it('sweeps seeds 1..3 and prints a summary', async () => {
    const { code, stdout } = await cli(['sweep', ZOMBIE, '--seeds', '1..3', '--out', scratch.path]);
    expect(code).toBe(0);
    expect(stdout).toContain('sweep summary');
    expect(stdout).toContain(`zombie-fencing (${ZOMBIE}) · seeds 1..3`);
    expect(stdout).toContain('outcomes: pass 3');
    expect(stdout).toContain('total: 1 scenario, 3 runs: every expectation met');
  });

  it('streams failing seeds with reproduce commands and exits 1', async () => {
    const file = scratch.write(
      'sweep-bug-not-expected.yaml',
      editedScenario(ZOMBIE_BUG, (text) =>
        text.replace('anomalies: [zombie-write]', 'anomalies: []').replace(/^ {2}detect.*\n/m, ''),
      ),
    );
    const { code, stdout } = await cli(['sweep', file, '--seeds', '1..5', '--out', scratch.path]);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /^FAIL zombie-fencing-no-epoch-check seed=\d+: (torn-transaction, )?zombie-write · /m,
    );
    expect(stdout).toMatch(new RegExp(`npx eos-sim run ${file} --seed \\d+`));
    expect(stdout).toContain("violates Kafka's guarantee, NOT allowed here: ");
    expect(stdout).toContain('expectation NOT met');
  });

  it('refuses two files with one scenario name, whose artifacts would collide', async () => {
    const copy = scratch.write(
      'copy.yaml',
      editedScenario(ZOMBIE, (text) => `${text}\n`),
    );
    const out = `${scratch.path}/same-name`;
    const argv = ['sweep', ZOMBIE, copy, '--seeds', '1..1', '--workers', '1', '--out', out];
    const { code, stdout, stderr } = await cli(argv);
    expect(code).toBe(64);
    expect(stdout).toBe('');
    expect(stderr).toBe(
      `Usage error: ${ZOMBIE} and ${copy} have the same scenario name "zombie-fencing": ` +
        'their failing seeds would share one artifact folder; give each file its own name\n',
    );
    const again = ['sweep', ZOMBIE, `./${ZOMBIE}`, '--seeds', '1..1', '--workers', '1'];
    const twice = await cli([...again, '--out', out]);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain('total: 1 scenario, 1 run');
  });

  it('prints the sweep summary as JSON with --json', async () => {
    const { code, stdout } = await cli([
      'sweep',
      ZOMBIE,
      '--seeds',
      '2..3',
      '--json',
      '--out',
      scratch.path,
    ]);
    expect(code).toBe(0);
    const summary = JSON.parse(stdout) as { scenarios: Array<Record<string, unknown>> };
    expect(summary.scenarios[0]).toMatchObject({ seedsRun: 2, expectationMet: true });
  });
});
