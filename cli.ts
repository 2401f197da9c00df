/**
 * The `eos-sim` command line: commander wiring only (commander's one home, style rule 4). It
 * parses arguments, decides colour from the terminal and `NO_COLOR`, invents a seed when none is
 * given (the only code allowed to, style rule 5), calls the commands in `cli/`, and maps errors
 * to exit codes: 64 with one line for a usage error or an invalid scenario, 70 for anything
 * unexpected. Commander runs with `exitOverride()`, so `main` returns the code and tests can
 * call it in-process; run as a script (`tsx cli.ts`), it sets `process.exitCode`.
 */
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { EOS_SIM_VERSION } from './sim/runner';
import { terminalSafe } from './reports';
import {
  AUDIT_OUT_DEFAULT,
  AUDIT_SEEDS_DEFAULT,
  auditCommand,
  DEFAULT_OUT,
  EXIT_CODES,
  SEED_TIMEOUT_MS_DEFAULT,
  OutputFileError,
  UsageError,
  errorMessage,
  isInputError,
  mainJob,
  mergeCommand,
  checkCommand,
  runCommand,
  mutantsCommand,
  scenariosCommand,
  shrinkCommand,
  stopWhenWrapperDies,
  sweepCommand,
  type CliContext,
  type CliIo,
  type ExitCode,
} from './cli/index';

/** The flags of `eos-sim run`, as commander hands them over. */
interface RunFlags {
  readonly seed?: string;
  readonly json?: boolean;
  readonly checkDeterminism?: boolean;
  readonly verbose?: boolean;
  readonly report?: string[];
  readonly history?: string;
  readonly jepsenHistory?: string;
  readonly swarm?: boolean;
  readonly exportScenario?: string;
  readonly until?: string;
  readonly kafkaVersion?: string;
}

/** The flags of `eos-sim check`, as commander hands them over. */
interface CheckFlags {
  readonly json?: boolean;
  readonly allErrors?: boolean;
  readonly jepsenHistory?: string;
}

/** Commander's collector for a repeatable option. */
function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** The flags of `eos-sim shrink`, as commander hands them over. */
interface ShrinkFlags {
  readonly seed?: string;
  readonly out?: string;
  readonly kind?: string;
  readonly swarm?: boolean;
  readonly runsMax?: string;
}

/** The flags of `eos-sim sweep`, as commander hands them over. */
interface SweepFlags {
  readonly seeds?: string;
  readonly json?: boolean;
  readonly workers?: string;
  readonly shard?: string;
  readonly out?: string;
  readonly resume?: boolean;
  readonly junit?: string;
  readonly seedTimeoutMs?: string;
  readonly requireCoverage?: string;
  readonly swarm?: boolean;
  readonly kafkaVersion?: string;
  readonly safe?: boolean;
}

/** The flags of `eos-sim report merge`, as commander hands them over. */
interface MergeFlags {
  readonly junit?: string;
  readonly json?: boolean;
  readonly requireCoverage?: string;
  readonly allowGaps?: boolean;
}

/**
 * A fresh root seed: a random u64 as a decimal string, from `node:crypto`. The only place in
 * the code base where a seed is invented.
 */
function inventSeed(): string {
  return randomBytes(8).readBigUInt64BE(0).toString();
}

/** Colour only on a terminal, and never when `NO_COLOR` is set to anything (no-color.org). */
function colourWanted(io: CliIo): boolean {
  const noColour = process.env['NO_COLOR'];
  return io.stdout.isTTY === true && (noColour === undefined || noColour === '');
}

/** Adds `mutants` to `program`. */
function addMutantsCommand(
  program: Command,
  options: { context: CliContext; setExitCode: (code: ExitCode) => void },
): void {
  const { context, setExitCode } = options;
  program
    .command('mutants')
    .description('Turn each bug switch on alone under swarm mode and report the first catch')
    .option('--seeds <range>', 'seed budget A..B; default: 1..20')
    .option('--base <file>', 'the generic scenario; default: transactions-random-faults.yaml')
    .option('--switch <ids>', 'only these bug switches, comma-separated')
    .option('--workers <n>', 'worker threads; default: every core')
    .option('--seed-timeout-ms <ms>', 'wall-clock budget of one run; default: 600000')
    .option('--out <dir>', 'stream every run to DIR/runs.jsonl, the table to DIR/table.md')
    .option('--resume', 'with --out: do not run again the runs DIR/runs.jsonl records')
    .option(
      '--run-unreached',
      'run also the switch runs whose control never consulted the switch, and fail if one ' +
        'executed other events (checks the skip)',
    )
    .action(
      async (flags: {
        seeds?: string;
        base?: string;
        switch?: string;
        workers?: string;
        seedTimeoutMs?: string;
        out?: string;
        resume?: boolean;
        runUnreached?: boolean;
      }) =>
        setExitCode(
          await mutantsCommand(
            {
              seeds: flags.seeds,
              base: flags.base,
              switches: flags.switch,
              workers: flags.workers,
              seedTimeoutMs: flags.seedTimeoutMs,
              out: flags.out,
              resume: flags.resume === true,
              runUnreached: flags.runUnreached === true,
            },
            context,
          ),
        ),
    );
}

/** Adds `sweep` and `report merge` to `program`. */
function addSweepCommands(
  program: Command,
  options: { context: CliContext; setExitCode: (code: ExitCode) => void },
): void {
  const { context, setExitCode } = options;
  program
    .command('sweep')
    .description('Run scenarios over a range of seeds on all cores and summarise')
    .argument('<paths...>', 'scenario files or directories')
    .option('--seeds <range>', "seed range A..B; default: each scenario's run.seeds")
    .option('--workers <n>', 'worker threads; default: the available parallelism')
    .option('--shard <k/n>', 'run only shard K of N (1-based): seeds first+K-1, first+K-1+N, ...')
    .option('--out <dir>', `results.jsonl and failing seeds' artifacts; default: ${DEFAULT_OUT}`)
    .option('--resume', 'skip the seeds <out>/results.jsonl already records')
    .option('--junit <file>', 'write JUnit XML: one test case per seed')
    .option(
      '--seed-timeout-ms <ms>',
      `wall-clock budget per seed; default: ${SEED_TIMEOUT_MS_DEFAULT}`,
    )
    .option('--require-coverage <items>', 'fail unless each item was reached, e.g. fault:pause')
    .option('--json', 'print the summary as JSON (per-seed lines go to stderr)')
    .option('--swarm', 'each seed draws fault kinds, rates and Kafka configs')
    .option('--kafka-version <v>', "model Kafka release V instead of each file's kafka.version")
    .option('--safe', 'only files outside known-bugs/ that expect no anomaly and no stall')
    .action(async (paths: string[], flags: SweepFlags) => {
      const options = {
        paths,
        ...flags,
        seeds: flags.seeds,
        json: flags.json === true,
        resume: flags.resume === true,
        swarm: flags.swarm === true,
        safe: flags.safe === true,
      };
      setExitCode(await sweepCommand(options, context));
    });
  const report = program.command('report').description('Work with the results of sweeps');
  report
    .command('merge')
    .description('Merge results.jsonl files of the shards of a sweep into one summary')
    .argument('<results...>', 'results.jsonl files')
    .option('--junit <file>', 'write JUnit XML: one test case per seed')
    .option('--require-coverage <items>', 'fail unless each item was reached, e.g. fault:pause')
    .option('--json', 'print the summary as JSON')
    .option('--allow-gaps', 'exit 0 even when seeds are missing or no results were read')
    .action((files: string[], flags: MergeFlags) => {
      const options = {
        files,
        allowGaps: flags.allowGaps === true,
        junit: flags.junit,
        json: flags.json === true,
        requireCoverage: flags.requireCoverage,
      };
      setExitCode(mergeCommand(options, context));
    });
}

/** `eos-sim check` (the checkers on a history file) and `eos-sim shrink`. */
function addHistoryCommands(
  program: Command,
  options: { context: CliContext; setExitCode: (code: ExitCode) => void },
): void {
  const { context, setExitCode } = options;
  program
    .command('check')
    .description('Run the checkers alone on a history file (docs/history.md)')
    .argument('<history>', 'history file (.jsonl), e.g. from eos-sim run --history')
    .option('--json', 'print the check result as JSON')
    .option('--all-errors', 'list every anomaly, not the first 20 of each kind')
    .option('--jepsen-history <file>', "also write the history in Jepsen's Kafka shape (EDN)")
    .action((file: string, flags: CheckFlags) => {
      const options = {
        file,
        json: flags.json === true,
        allErrors: flags.allErrors === true,
        jepsenHistory: flags.jepsenHistory,
      };
      setExitCode(checkCommand(options, context));
    });
  program
    .command('shrink')
    .description('Shrink a failing seed to a smaller scenario with the same anomaly kind')
    .argument('<scenario>', 'scenario file (.yaml)')
    .option('--seed <seed>', 'the failing seed (required)')
    .option('--out <file>', 'where to write the shrunk scenario (required)')
    .option('--kind <anomaly>', 'the anomaly kind to keep; default: the first one found')
    .option('--swarm', 'shrink the seed under swarm mode')
    .option('--runs-max <n>', 'most runs to spend; default: 300')
    .action((scenario: string, flags: ShrinkFlags) => {
      setExitCode(shrinkCommand({ scenario, ...flags, seed: flags.seed, out: flags.out }, context));
    });
}

/** The flags of `eos-sim audit`, as commander hands them over. */
interface AuditFlags {
  readonly kafkaVersion?: string;
  readonly expect?: string;
  readonly seeds?: string;
  readonly fixSeeds?: string;
  readonly workers?: string;
  readonly out?: string;
  readonly report?: string[];
  readonly shrinkRunsMax?: string;
}

/** `eos-sim audit`: the user's own .properties files under every fault kind. */
function addAuditCommand(
  program: Command,
  options: { context: CliContext; setExitCode: (code: ExitCode) => void },
): void {
  const { context, setExitCode } = options;
  program
    .command('audit')
    .description('What your Kafka .properties files can lose, duplicate or expose (docs/audit.md)')
    .argument('<files...>', 'server.properties first, then producer/consumer .properties files')
    .option('--kafka-version <v>', 'the Kafka release to model; default: the newest')
    .option('--expect <k>', 'exactly-once, no-loss, no-duplicates or at-least-once')
    .option('--seeds <a..b>', `swarm seeds to sweep; default: ${AUDIT_SEEDS_DEFAULT}`)
    .option('--fix-seeds <a..b>', "seeds of each fix's sweep; default: a quarter, at least 10")
    .option('--workers <n>', 'worker threads; default: every core')
    .option('--out <dir>', `scenario, reproducers and fixes; default: ${AUDIT_OUT_DEFAULT}`)
    .option('--report <file>', 'write the report: .md or .html (repeatable)', collect, [])
    .option('--shrink-runs-max <n>', 'most runs shrinking one kind may spend; default: 40')
    .action(async (files: string[], flags: AuditFlags) => {
      const { report, ...rest } = flags;
      setExitCode(await auditCommand({ files, ...rest, reports: report ?? [] }, context));
    });
}

/** Builds the program; each action stores its exit code through `setExitCode`. */
function buildProgram(context: CliContext, setExitCode: (code: ExitCode) => void): Command {
  const { io } = context;
  const program = new Command('eos-sim')
    .description("Deterministic simulator of Kafka's exactly-once machinery")
    .version(EOS_SIM_VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // main() prints usage errors itself, on one line.
      outputError: () => undefined,
    })
    .showSuggestionAfterError()
    .helpCommand(true)
    .action(async () => {
      const [unknown] = program.args;
      if (unknown !== undefined) throw new UsageError(`unknown command '${unknown}'`);
      setExitCode(await mainJob(context));
    });
  program
    .command('run')
    .description('Run one scenario with one seed and explain the result')
    .argument('<scenario>', 'scenario file (.yaml)')
    .option('--seed <seed>', 'decimal u64 or 40-hex git hash; random when omitted')
    .option('--json', 'print only the run report, as JSON, on stdout (seed=N goes to stderr)')
    .option('--check-determinism', 'run twice and compare the executed events and reports')
    .option('--verbose', 'print the stack of an internal error')
    .option('--report <file>', 'write a report: .md, .html or .json (repeatable)', collect, [])
    .option('--history <file>', 'write the history file that eos-sim check reads (JSON Lines)')
    .option('--jepsen-history <file>', "write the history in Jepsen's Kafka workload shape (EDN)")
    .option('--swarm', 'draw fault kinds, rates and Kafka configs from the seed')
    .option('--export-scenario <file>', 'write the realised scenario (faults written out)')
    .option(
      '--until <moment>',
      'stop at 3.4s, 3400ms, event:N or first-anomaly and print the cluster as it stands',
    )
    .option('--kafka-version <v>', "model Kafka release V instead of the file's kafka.version")
    .action((scenario: string, flags: RunFlags) => {
      const options = {
        scenario,
        seed: flags.seed,
        json: flags.json === true,
        checkDeterminism: flags.checkDeterminism === true,
        verbose: flags.verbose === true,
        reports: flags.report ?? [],
        history: flags.history,
        jepsenHistory: flags.jepsenHistory,
        swarm: flags.swarm === true,
        exportScenario: flags.exportScenario,
        until: flags.until,
        kafkaVersion: flags.kafkaVersion,
      };
      setExitCode(runCommand(options, context));
    });
  addHistoryCommands(program, { context, setExitCode });
  addSweepCommands(program, { context, setExitCode });
  addAuditCommand(program, { context, setExitCode });
  program
    .command('scenarios')
    .description('List the bundled scenarios')
    .action(() => setExitCode(scenariosCommand(context)));
  addMutantsCommand(program, { context, setExitCode });
  // Only the top level takes extra words (to name an unknown command); set after the
  // subcommands were added, so they keep commander's refusal of excess arguments.
  program.allowExcessArguments();
  return program;
}

/**
 * Commander's message as one usage line: `error: unknown option '--sed'\n(Did you mean
 * --seed?)` becomes `Usage error: unknown option '--sed' (Did you mean --seed?)`.
 */
function usageLine(error: CommanderError): string {
  const detail = errorMessage(error)
    .replace(/^error: /, '')
    .replace(/\.$/, '');
  return `Usage error: ${detail}`;
}

/** Prints `error` as the exit code it maps to requires, and returns that code. */
function reportError(error: unknown, options: { io: CliIo; verbose: boolean }): ExitCode {
  const { stderr } = options.io;
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return EXIT_CODES.ok; // --help, --version
    stderr.write(`${usageLine(error)}\n`);
    return EXIT_CODES.usage;
  }
  if (isInputError(error)) {
    stderr.write(`${errorMessage(error)}\n`);
    return EXIT_CODES.usage;
  }
  if (error instanceof OutputFileError) {
    stderr.write(`${errorMessage(error)}\n`);
    return error.exitCode;
  }
  stderr.write(`Internal error: ${errorMessage(error)}\n`);
  if (options.verbose && error instanceof Error && error.stack !== undefined) {
    stderr.write(`${error.stack}\n`);
  }
  return EXIT_CODES.internal;
}

/** Options that may be given more than once. */
const REPEATABLE_OPTIONS: ReadonlySet<string> = new Set(['--report']);

/**
 * Refuses an option given twice (`--seed 1 --seed 2`): commander would keep the last one
 * silently. Words after `--` are arguments, not options.
 * @throws {@link UsageError} naming the option.
 */
function refuseRepeatedOptions(argv: readonly string[]): void {
  const seen = new Set<string>();
  for (const word of argv) {
    if (word === '--') return;
    if (!word.startsWith('--')) continue;
    const option = word.split('=')[0] as string;
    if (seen.has(option) && !REPEATABLE_OPTIONS.has(option)) {
      throw new UsageError(`option '${option}' given more than once`);
    }
    seen.add(option);
  }
}

/** The process's own streams. */
const PROCESS_IO: CliIo = { stdout: process.stdout, stderr: process.stderr };

/**
 * `io` with every write passed through {@link terminalSafe}: the renderers escape the user
 * strings they print, and this last pass makes sure no control sequence other than their own
 * colours reaches a terminal, whatever a command prints.
 */
function safeIo(io: CliIo, colour: boolean): CliIo {
  const wrap = (sink: CliIo['stdout'], keepColour: boolean): CliIo['stdout'] => ({
    write: (text: string) => sink.write(terminalSafe(text, { colour: keepColour })),
    ...(sink.isTTY === undefined ? {} : { isTTY: sink.isTTY }),
    raw: sink.raw ?? sink,
  });
  return { stdout: wrap(io.stdout, colour), stderr: wrap(io.stderr, false) };
}

/**
 * A reader that goes away (`eos-sim run … | head -1`) makes the next write fail with EPIPE,
 * which Node raises as an unhandled 'error' event: a stack trace on stderr and exit 1 whatever
 * the run found. Like other command-line tools, the CLI drops the output nobody reads and
 * carries on: files are still written and the exit code is the run's. Other errors still throw.
 */
function tolerateClosedPipes(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}

/**
 * Runs the CLI with `argv` (the arguments after the program name) and returns the exit code:
 * 0 every expectation met, 1 anomaly or unmet expectation, 2 liveness, 3 nondeterminism,
 * 4 budget exceeded, 64 usage error or invalid scenario, 70 internal error.
 * @param io - Where output goes. @default process.stdout and process.stderr
 * @example
 * const code = await main(['run', 'scenarios/zombie-fencing.yaml', '--seed', '7']);
 */
export async function main(argv: readonly string[], io: CliIo = PROCESS_IO): Promise<number> {
  if (io === PROCESS_IO) tolerateClosedPipes();
  const colour = colourWanted(io);
  const context: CliContext = { io: safeIo(io, colour), colour, inventSeed };
  let exitCode: ExitCode = EXIT_CODES.ok;
  const program = buildProgram(context, (code) => {
    exitCode = code;
  });
  try {
    refuseRepeatedOptions(argv);
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    return reportError(error, { io: context.io, verbose: argv.includes('--verbose') });
  }
}

/** Whether this module is the script node was started with (`tsx cli.ts`). */
function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  stopWhenWrapperDies();
  process.exitCode = await main(process.argv.slice(2));
}
