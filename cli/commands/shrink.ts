/**
 * `eos-sim shrink <scenario> --seed N --out min.yaml [--kind K] [--swarm] [--runs-max N]`:
 * delta debugging of a failing seed (see `runner/shrink.ts`). It prints the seed, the anomaly
 * kind it keeps and the sizes before and after (faults, operations, records, clients), writes
 * the smallest scenario that still fails with that kind, and checks the written file by loading
 * and running it once more. Exit 0 when a file was written, 1 when the seed does not fail.
 */
import { writeOutputFile } from '../file_io';
import { plural } from '../../reports';
import { loadScenario, parseScenario, writeScenarioYaml } from '../../scenarios';
import {
  ShrinkNotFailingError,
  drawSwarm,
  foundKinds,
  runScenario,
  reproduceCommand,
  shrinkScenario,
  type ScenarioSize,
} from '../../sim/runner';
import { ANOMALY_KINDS } from '../../sim/checker';
import { UsageError } from '../errors';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { checkOutputFile, checkOutputsApart } from '../output_paths';
import { parseSeed } from '../seeds';
import { parsePositiveInteger } from '../sweep_output';

/** The parsed arguments of `eos-sim shrink`. */
export interface ShrinkCommandOptions {
  readonly scenario: string;
  /** `--seed`: required. */
  readonly seed: string | undefined;
  /** `--out`: required. */
  readonly out: string | undefined;
  /** `--kind`: the anomaly kind (or `liveness`) to keep. @default the first kind found */
  readonly kind?: string | undefined;
  /** `--swarm`: shrink the seed's swarm run. @default false */
  readonly swarm?: boolean;
  /** `--runs-max`: most runs to spend. @default 300 */
  readonly runsMax?: string | undefined;
}

function sizeText(size: ScenarioSize): string {
  return (
    `${size.faults} faults + ${size.operations} operations = ${size.faults + size.operations} ` +
    `(${plural(size.records, 'record')}, ${plural(size.clients, 'client')})`
  );
}

/** The kinds `--kind` takes: every anomaly kind, and `liveness`. */
const SHRINK_KINDS: readonly string[] = [...ANOMALY_KINDS, 'liveness'];

/** A misspelt `--kind` is a usage error, not a seed that "finds no" such kind (exit 1). */
function checkKind(kind: string | undefined): void {
  if (kind === undefined || SHRINK_KINDS.includes(kind)) return;
  throw new UsageError(`--kind must be one of ${SHRINK_KINDS.join(', ')}: got "${kind}"`);
}

/**
 * Runs `eos-sim shrink` and returns its exit code.
 * @throws UsageError without --seed or --out, for an unknown --kind, or for an --out that cannot
 * be written;
 * ScenarioInvalidError or ScenarioNotFoundError.
 * @example shrinkCommand({ scenario: 'scenarios/known-bugs/retry-without-idempotence.yaml',
 *   seed: '1', out: 'min.yaml' }, context) // 0
 */
export function shrinkCommand(options: ShrinkCommandOptions, context: CliContext): ExitCode {
  if (options.seed === undefined) throw new UsageError('shrink needs --seed');
  if (options.out === undefined) throw new UsageError('shrink needs --out');
  const seed = parseSeed(options.seed);
  checkKind(options.kind);
  checkOutputFile('--out', options.out);
  checkOutputsApart(options.scenario, [['--out', options.out]]);
  const loaded = loadScenario(options.scenario);
  const scenario = options.swarm === true ? drawSwarm(loaded, seed).scenario : loaded;
  const { stdout, stderr } = context.io;
  stdout.write(`seed=${seed}\n`);
  const runsMax =
    options.runsMax === undefined
      ? undefined
      : parsePositiveInteger('--runs-max', options.runsMax, 100_000);
  let result;
  try {
    result = shrinkScenario(scenario, {
      seed,
      ...(options.kind === undefined ? {} : { kind: options.kind }),
      ...(runsMax === undefined ? {} : { runsMax }),
    });
  } catch (error) {
    if (!(error instanceof ShrinkNotFailingError)) throw error;
    stderr.write(`${error.message}\n`);
    return EXIT_CODES.fail;
  }
  const text = writeScenarioYaml(result.scenario, [
    `Shrunk from ${options.scenario} seed ${seed}${options.swarm === true ? ' with --swarm' : ''}`,
    `keeping ${result.kind}; replay: ${reproduceCommand(options.out, seed)}`,
  ]);
  writeOutputFile(options.out, text);
  const again = foundKinds(runScenario(parseScenario(text, options.out), { seed }).report);
  stdout.write(
    `kind    ${result.kind}\n` +
      `before  ${sizeText(result.before)}\n` +
      `after   ${sizeText(result.after)}\n` +
      `runs    ${result.runs}\n` +
      `written ${options.out} (replayed: ${
        again.includes(result.kind) ? 'same kind found' : 'kind NOT found'
      })\n`,
  );
  return again.includes(result.kind) ? EXIT_CODES.ok : EXIT_CODES.fail;
}
