/**
 * `eos-sim mutants [--seeds A..B] [--base FILE] [--switch ID,...]`: for every bug switch (or the
 * ones named), the seeds to its first catch in a generic scenario under swarm mode (see
 * cli/mutants.ts), printed as a table. Exits 1 when some switch is never caught within the seeds.
 */
import { join } from 'node:path';
import { BUG_IDS, loadScenario, type BugId } from '../../scenarios';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import { UsageError } from '../errors';
import type { CliContext } from '../io';
import { genericBases, renderMutantTable, searchMutant, type MutantResult } from '../mutants';
import { bundledScenarioDir } from '../paths';
import { parseSeedRange, seedsOf } from '../seeds';

/** The parsed arguments of `eos-sim mutants`. */
export interface MutantsCommandOptions {
  /** `--seeds A..B`: the seed budget. @default {@link MUTANT_SEEDS_DEFAULT} */
  readonly seeds?: string | undefined;
  /** `--base FILE`: the generic scenario. @default scenarios/transactions-random-faults.yaml */
  readonly base?: string | undefined;
  /** `--switch ID,...`: only these switches. @default every switch */
  readonly switches?: string | undefined;
}

/** The seed budget unless `--seeds` says otherwise. */
export const MUTANT_SEEDS_DEFAULT = '1..20';

/** The switches named by `--switch`, each checked against the registry. */
function switchesOf(text: string | undefined): BugId[] {
  if (text === undefined) return [...BUG_IDS];
  return text.split(',').map((name) => {
    const id = name.trim();
    if (!(BUG_IDS as readonly string[]).includes(id)) {
      throw new UsageError(`--switch must name bug switches (${BUG_IDS.join(', ')}): got "${id}"`);
    }
    return id as BugId;
  });
}

/**
 * Runs `eos-sim mutants` and returns its exit code.
 * @example mutantsCommand({ seeds: '1..5', switches: 'KAFKA-6119' }, context)
 */
export function mutantsCommand(options: MutantsCommandOptions, context: CliContext): ExitCode {
  const { stdout, stderr } = context.io;
  const seeds = [...seedsOf(parseSeedRange(options.seeds ?? MUTANT_SEEDS_DEFAULT))];
  const file = options.base ?? join(bundledScenarioDir(), 'transactions-random-faults.yaml');
  const bases = genericBases(loadScenario(file));
  const results: MutantResult[] = [];
  for (const id of switchesOf(options.switches)) {
    const result = searchMutant(id, bases, seeds);
    stderr.write(`${id}: ${result.caught ? `caught at seed ${result.seed}` : 'not caught'}\n`);
    results.push(result);
  }
  stdout.write(`base ${file} (${bases.map((base) => base.label).join(', ')}), swarm mode\n`);
  stdout.write(renderMutantTable(results));
  const missed = results.filter((result) => !result.caught).map((result) => result.id);
  if (missed.length === 0) return EXIT_CODES.ok;
  stdout.write(`not caught within ${seeds.length} seeds: ${missed.join(', ')}\n`);
  return EXIT_CODES.fail;
}
