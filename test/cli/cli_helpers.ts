/**
 * Helpers for the CLI suites: call `main` in-process with captured streams, and write scenario
 * files derived from the bundled ones into a temporary directory.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliIo } from '../../cli/index';

/** What one CLI call printed and returned. */
export interface CliCall {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The CLI's entry function, `main` of `cli.ts`. */
export type CliMain = (argv: readonly string[], io: CliIo) => Promise<number>;

/**
 * Runs the CLI's `main` with `argv` and captured streams (not a TTY unless `isTTY`). Test files
 * pass `main` in: they import `cli.ts` themselves, which only test files may (rule 3).
 * @example const { code, stdout } = await runCli(main, ['run', 'scenarios/zombie-fencing.yaml'])
 */
export async function runCli(
  main: CliMain,
  argv: readonly string[],
  options: { isTTY?: boolean } = {},
): Promise<CliCall> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await main(argv, {
    stdout: { write: (text: string) => stdout.push(text), isTTY: options.isTTY ?? false },
    stderr: { write: (text: string) => stderr.push(text) },
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** A temporary directory for scenario files, removed by `remove()`. */
export interface ScratchDir {
  readonly path: string;
  /** Writes `text` to `name` in the directory and returns the file's path. */
  write(name: string, text: string): string;
  remove(): void;
}

/** Creates a {@link ScratchDir}. */
export function scratchDir(): ScratchDir {
  const path = mkdtempSync(join(tmpdir(), 'eos-sim-cli-'));
  return {
    path,
    write(name, text) {
      const file = join(path, name);
      writeFileSync(file, text);
      return file;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}

/**
 * The text of a bundled scenario with `edit` applied; fails loudly when the edit changed
 * nothing, so a fixture cannot silently drift away from the file it was made from.
 */
export function editedScenario(file: string, edit: (text: string) => string): string {
  const text = readFileSync(file, 'utf8');
  const edited = edit(text);
  if (edited === text) throw new Error(`Fixture edit changed nothing: ${file}`);
  return edited;
}
