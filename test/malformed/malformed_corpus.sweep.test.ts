/**
 * Goal: the malformed-input corpus of issue 19, at 1,000 files (`MALFORMED_CORPUS_COUNT` sets
 * another size): 0 crashes, 0 hangs, 0 exit 70, 0 invalid files accepted. Each file of the
 * seeded generator (./mutants.ts) goes through the CLI in-process, `eos-sim run FILE --seed 1`
 * when the loader refuses it: exit 64 and one line on stderr, within seconds. Each file the
 * loader accepts (a truncation or a changed number can leave a valid scenario) must be one the
 * generator marked as possibly valid, and is then run: all of them in one `eos-sim sweep` with a
 * wall-clock budget per seed, so a hang is a timeout and a crash a dead worker, both counted.
 *
 * Method: write the corpus to a scratch directory; classify with `loadScenario`; `main` for the
 * refused ones; the accepted ones (renamed `<name>-m<index>`, as a sweep refuses two files with
 * one name) swept at seed 1 with one worker; the tally is printed and every bad count must be 0.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RESULTS_FILE_NAME, readResults } from '../../cli/index';
import { main } from '../../cli';
import { loadScenario } from '../../scenarios';
import { runCli, scratchDir } from '../cli/cli_helpers';
import { malformedCorpus } from './mutants';

const COUNT = Number.parseInt(process.env['MALFORMED_CORPUS_COUNT'] ?? '1000', 10);
/** A refusal slower than this counts as a hang. */
const REFUSAL_MS_MAX = 5_000;
/** The wall-clock budget of one accepted file's run. */
const RUN_TIMEOUT_MS = 120_000;
const scratch = scratchDir();
afterAll(() => scratch.remove());

/** The counts the issue asks for, and the examples behind each. */
interface Tally {
  refused: number;
  accepted: number;
  crashes: string[];
  hangs: string[];
  internal: string[];
  acceptedInvalid: string[];
  notOneLine: string[];
}

/** Loads each mutant; runs the CLI on the refused ones; returns the accepted files. */
async function refuseOrCollect(tally: Tally, files: string): Promise<string[]> {
  const accepted: string[] = [];
  const mutants = malformedCorpus(COUNT, 'malformed-corpus-1');
  for (const [index, { bytes, invalid, what }] of mutants.entries()) {
    const path = join(files, `m${index}.yaml`);
    writeFileSync(path, bytes);
    try {
      loadScenario(path);
    } catch {
      const started = performance.now();
      const call = await runCli(main, ['run', path, '--seed', '1']);
      const label = `m${index} (${what})`;
      if (performance.now() - started > REFUSAL_MS_MAX) tally.hangs.push(label);
      if (call.code === 70) tally.internal.push(`${label}: ${call.stderr}`);
      else if (call.code !== 64) tally.crashes.push(`${label}: exit ${call.code}`);
      if (call.stderr.trimEnd().includes('\n') || call.stdout !== '') tally.notOneLine.push(label);
      tally.refused++;
      continue;
    }
    tally.accepted++;
    if (invalid) tally.acceptedInvalid.push(`m${index} (${what})`);
    accepted.push(path);
  }
  return accepted;
}

/** Sweeps the accepted files at seed 1 and counts timeouts, dead workers and internal errors. */
async function runAccepted(tally: Tally, accepted: readonly string[]): Promise<void> {
  const folder = join(scratch.path, 'accepted');
  mkdirSync(folder);
  for (const path of accepted) {
    const name = path.replace(/^.*\/(m\d+)\.yaml$/, '$1');
    const text = readFileSync(path, 'utf8').replace(/^name: (.*)$/m, `name: $1-${name}`);
    writeFileSync(join(folder, `${name}.yaml`), text);
  }
  if (accepted.length === 0) return;
  const out = join(scratch.path, 'sweep');
  const argv = ['sweep', folder, '--seeds', '1..1', '--workers', '1', '--out', out];
  await runCli(main, [...argv, '--seed-timeout-ms', String(RUN_TIMEOUT_MS)]);
  const { lines } = readResults(join(out, RESULTS_FILE_NAME), { repair: false, missingOk: true });
  expect(lines).toHaveLength(accepted.length);
  for (const line of lines) {
    const label = `${line.file}: ${line.error ?? ''}`;
    if (line.error?.includes('wall-clock timeout') === true) tally.hangs.push(label);
    else if (line.outcome === 'internal-error' && /worker/i.test(line.error ?? '')) {
      tally.crashes.push(label);
    } else if (line.outcome === 'internal-error') tally.internal.push(label);
  }
}

describe('malformed corpus', () => {
  it(`${COUNT} seeded files: refused with exit 64 and one line, or run cleanly`, async () => {
    const files = join(scratch.path, 'files');
    mkdirSync(files);
    const tally: Tally = {
      refused: 0,
      accepted: 0,
      crashes: [],
      hangs: [],
      internal: [],
      acceptedInvalid: [],
      notOneLine: [],
    };
    const accepted = await refuseOrCollect(tally, files);
    await runAccepted(tally, accepted);
    const counts = Object.entries(tally).map(([key, value]) =>
      Array.isArray(value) ? `${key} ${value.length}` : `${key} ${value}`,
    );
    console.log(`malformed corpus of ${COUNT}: ${counts.join(', ')}`);
    expect(tally.crashes).toEqual([]);
    expect(tally.hangs).toEqual([]);
    expect(tally.internal).toEqual([]);
    expect(tally.acceptedInvalid).toEqual([]);
    expect(tally.notOneLine).toEqual([]);
    expect(tally.refused + tally.accepted).toBe(COUNT);
  });
});
