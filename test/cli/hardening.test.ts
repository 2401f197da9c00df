/**
 * Goal: pin the CLI's answers to the careless and hostile inputs of issue 19 (items 7 and 8):
 * extra positional arguments and repeated options are usage errors; `--out` under /proc is
 * refused; a full device is one line naming the path and ENOSPC with exit 74, and with --junit
 * the sweep summary is printed first; a symbolic link where results.jsonl goes is refused with
 * exit 73 and its target left alone; FIFOs and symlink loops as scenarios are exit 64, one
 * line; a read-only results file is exit 73 naming the system error, a read-only --report
 * target a usage error before the run; a control sequence in a path reaches the terminal
 * escaped. Method: `main` in-process
 * with captured streams, files in a temporary folder, /dev/full as the full device.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { runCli, scratchDir, type CliCall } from './cli_helpers';

const cli = (argv: readonly string[]): Promise<CliCall> => runCli(main, argv);
const ZOMBIE = 'scenarios/zombie-fencing.yaml';
const scratch = scratchDir();
afterAll(() => scratch.remove());

/** Expects exit `code` and exactly `line` on stderr. */
function expectOneLine(call: CliCall, code: number, line: string | RegExp): void {
  expect(call.code).toBe(code);
  const lines = call.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  if (typeof line === 'string') expect(lines[0]).toBe(line);
  else expect(lines[0]).toMatch(line);
}

describe('arguments', () => {
  it('refuses extra positional arguments and a repeated option', async () => {
    expectOneLine(
      await cli(['run', ZOMBIE, 'other.yaml', '--seed', '1']),
      64,
      "Usage error: too many arguments for 'run'. Expected 1 argument but got 2",
    );
    expectOneLine(
      await cli(['run', ZOMBIE, '--seed', '1', '--seed=2']),
      64,
      "Usage error: option '--seed' given more than once",
    );
    expectOneLine(
      await cli(['report', 'merge', 'a.jsonl', '--json', '--json']),
      64,
      "Usage error: option '--json' given more than once",
    );
  });

  it('refuses --out under /proc before running anything', async () => {
    const call = await cli([
      'sweep',
      ZOMBIE,
      '--seeds',
      '1..1',
      '--workers',
      '1',
      '--out',
      '/proc/x',
    ]);
    expectOneLine(
      call,
      64,
      'Usage error: --out /proc/x: is under a kernel pseudo file system, not a folder',
    );
  });
});

describe('I/O errors', () => {
  it('a full device is exit 74 naming the path and ENOSPC', async () => {
    const call = await cli(['run', ZOMBIE, '--seed', '1', '--history', '/dev/full']);
    expectOneLine(call, 74, 'Cannot write /dev/full: ENOSPC: no space left on device');
  });

  it('with --junit on a full device the summary is still printed', async () => {
    const out = join(scratch.path, 'junit-out');
    const argv = ['sweep', ZOMBIE, '--seeds', '1..1', '--workers', '1', '--out', out];
    const call = await cli([...argv, '--junit', '/dev/full']);
    expect(call.stdout).toContain('every expectation met');
    expect(call.code).toBe(74);
    const last = call.stderr.trimEnd().split('\n').at(-1);
    expect(last).toBe('Cannot write /dev/full: ENOSPC: no space left on device');
  });

  it('refuses a symbolic link as results.jsonl and leaves its target alone', async () => {
    const out = join(scratch.path, 'linked');
    mkdirSync(out);
    const target = scratch.write('target.txt', 'keep\n');
    symlinkSync(target, join(out, 'results.jsonl'));
    const call = await cli(['sweep', ZOMBIE, '--seeds', '1..1', '--workers', '1', '--out', out]);
    expectOneLine(
      call,
      73,
      `Cannot create ${out}/results.jsonl: is a symbolic link: ` +
        'refused, so that writing cannot overwrite its target',
    );
    expect(readFileSync(target, 'utf8')).toBe('keep\n');
  });
});

/**
 * Makes `file` unwritable even for root: mode 0444, and as root the immutable attribute
 * (`chattr +i`, which root's write permission does not override). False when neither holds.
 */
function makeReadOnly(file: string): boolean {
  chmodSync(file, 0o444);
  if (process.getuid?.() !== 0) return true;
  try {
    execFileSync('chattr', ['+i', file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function makeWritable(file: string): void {
  if (process.getuid?.() === 0) execFileSync('chattr', ['-i', file], { stdio: 'ignore' });
  chmodSync(file, 0o644);
}

describe('read-only files', () => {
  it('a read-only results file is exit 73 naming it and the system error', async (ctx) => {
    const out = join(scratch.path, 'read-only');
    mkdirSync(out);
    const results = join(out, 'results.jsonl');
    writeFileSync(results, 'kept\n');
    if (!makeReadOnly(results)) ctx.skip('cannot make a file read-only for root here (chattr)');
    try {
      const call = await cli(['sweep', ZOMBIE, '--seeds', '1..1', '--workers', '1', '--out', out]);
      expect(call.code).toBe(73);
      const last = call.stderr.trimEnd().split('\n').at(-1);
      const error = 'E(PERM|ACCES): (operation not permitted|permission denied)';
      expect(last).toMatch(new RegExp(`^Cannot create ${results}: ${error}$`));
      expect(readFileSync(results, 'utf8')).toBe('kept\n');
    } finally {
      makeWritable(results);
    }
  });

  it('a read-only --report file is refused before the run, exit 64', async (ctx) => {
    const report = scratch.write('read-only.md', '');
    if (!makeReadOnly(report)) ctx.skip('cannot make a file read-only for root here (chattr)');
    try {
      const call = await cli(['run', ZOMBIE, '--seed', '1', '--report', report]);
      expectOneLine(call, 64, `Usage error: --report ${report}: not writable`);
    } finally {
      makeWritable(report);
    }
  });
});

describe('special and hostile inputs', () => {
  it('refuses a FIFO and a symbolic link loop as the scenario: exit 64, no hang', async () => {
    const fifo = join(scratch.path, 'fifo.yaml');
    execFileSync('mkfifo', [fifo]);
    expectOneLine(
      await cli(['run', fifo, '--seed', '1']),
      64,
      `Invalid scenario ${fifo}: is a FIFO: expected a regular file`,
    );
    const loop = join(scratch.path, 'loop.yaml');
    symlinkSync(loop, loop);
    expectOneLine(
      await cli(['run', loop, '--seed', '1']),
      64,
      `Invalid scenario ${loop}: cannot be read: ELOOP: too many symbolic links encountered`,
    );
  });

  it('a newline in name: is refused, so no fake outcome line can be printed', async () => {
    const text = readFileSync(ZOMBIE, 'utf8').replace(
      'name: zombie-fencing',
      'name: "x\\noutcome         PASS: every expectation met"',
    );
    const file = scratch.write('newline.yaml', text);
    const call = await cli(['run', file, '--seed', '1']);
    expectOneLine(
      call,
      64,
      `Invalid scenario ${file}:1: name: ` +
        'must not contain control characters (newline, NUL, ESC and the like)',
    );
    expect(call.stdout).not.toContain('PASS');
  });

  it('escapes terminal-title and ANSI sequences in a path on the terminal', async () => {
    const path = join(scratch.path, 'a\u001b]0;pwned\u0007\u001b[2J.yaml');
    const call = await cli(['run', path, '--seed', '1']);
    expect(call.code).toBe(64);
    expect(call.stderr).not.toContain('\u001b');
    expect(call.stderr).not.toContain('\u0007');
    expect(call.stderr).toContain('a\\u001b]0;pwned\\u0007\\u001b[2J.yaml');
    expect(existsSync(path)).toBe(false);
  });
});
