/**
 * The artifact folder of a seed that did not pass: `<out>/<scenario name>/<seed>/` holding
 * `report.json` (the RunReport), `history.jsonl` (one history operation per line),
 * `reproduce.txt` (the command that replays the seed, after comment lines naming the scenario
 * hash and version) and, for a seed without a run report, `error.txt` (the message and stack).
 * Folders are written before the seed's result line, so a line in `results.jsonl` means its
 * artifacts are complete.
 */
import { readdirSync, rmSync } from 'node:fs';
import { makeFolder, writeOutputFile } from './file_io';
import { join } from 'node:path';
import type { RunResult } from '../sim/runner';
import type { SweepResultLine } from '../reports';
import { historyFileText } from './report_files';

/**
 * The folder name of a scenario: its name with anything but letters, digits, `.`, `_` and `-`
 * replaced by `_`, so a name can never climb out of `--out`.
 * @example scenarioFolderName('zombie-fencing') // 'zombie-fencing'
 */
export function scenarioFolderName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return safe === '' || safe === '.' || safe === '..' ? `_${safe}` : safe;
}

/**
 * The artifact folder of `seed` of the scenario named `name`.
 * @example artifactDir('.eos-sim/sweep', 'zombie-fencing', '7') // …/zombie-fencing/7
 */
export function artifactDir(out: string, name: string, seed: string): string {
  return join(out, scenarioFolderName(name), seed);
}

function reproduceText(line: SweepResultLine): string {
  const detail = line.error ?? Object.keys(line.anomalies).join(', ');
  return [
    `# ${line.scenario} (${line.file}, sha256 ${line.hash}), eos-sim ${line.version}`,
    `# seed ${line.seed}: ${line.outcome}${detail === '' ? '' : `: ${detail}`}`,
    line.reproduce,
    '',
  ].join('\n');
}

/**
 * Writes the artifacts of a seed that did not pass. `result` is absent when the run produced
 * none (it threw, hung or its worker died); `error.txt` then holds the error and stack.
 * @example writeArtifacts({ out: '.eos-sim/sweep', line, result })
 */
export function writeArtifacts(input: {
  readonly out: string;
  readonly line: SweepResultLine;
  readonly result?: RunResult;
}): void {
  const { line, result } = input;
  const directory = artifactDir(input.out, line.scenario, line.seed);
  makeFolder(directory);
  if (result !== undefined) {
    writeOutputFile(join(directory, 'report.json'), `${JSON.stringify(result.report, null, 2)}\n`);
    // The history file format of docs/history.md, so `eos-sim check` can read it back.
    writeOutputFile(join(directory, 'history.jsonl'), historyFileText(result));
  }
  if (line.error !== undefined && result === undefined) {
    const stack = line.stack === undefined ? '' : `\n${line.stack}`;
    writeOutputFile(join(directory, 'error.txt'), `${line.error}${stack}\n`);
  }
  writeOutputFile(join(directory, 'reproduce.txt'), reproduceText(line));
}

/**
 * Removes the artifact folder of a scenario from an earlier sweep into the same `--out`, but only
 * when it holds nothing but seed folders: a folder eos-sim did not write is never deleted.
 * @example clearScenarioArtifacts('.eos-sim/sweep', 'zombie-fencing')
 */
export function clearScenarioArtifacts(out: string, name: string): void {
  const directory = join(out, scenarioFolderName(name));
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true });
  } catch {
    return;
  }
  const ours = entries.every((entry) => entry.isDirectory() && /^[0-9a-f]+$/.test(entry.name));
  if (ours) rmSync(directory, { recursive: true, force: true });
}
