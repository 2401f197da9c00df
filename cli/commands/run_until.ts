/**
 * `eos-sim run FILE --seed N --until <3.4s | 3400ms | event:12345 | first-anomaly>`: replays the
 * seed to that moment and prints the cluster as it stands (`reports/cluster_state_text.ts`), or
 * with `--json` the {@link ClusterState} as JSON on stdout. The run is stopped on purpose, so the
 * exit code is 0, also when the run ended before the moment (the state printed is then the
 * end's, and says so) or when `first-anomaly` finds no anomaly (one line on stderr). Flags that
 * write a run's report or history do not apply and are usage errors.
 */
import { loadScenario } from '../../scenarios';
import { drawSwarm, replayTo, replayToFirstAnomaly, swarmLines } from '../../sim/runner';
import type { ClusterState } from '../../sim/runner';
import { renderClusterState } from '../../reports';
import { UsageError } from '../errors';
import { EXIT_CODES, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { parseUntil } from '../until';
import type { RunCommandOptions } from './run';

/** Refuses the flags that make no sense with `--until`. */
function checkUntilFlags(options: RunCommandOptions): void {
  const clashing = [
    options.checkDeterminism ? '--check-determinism' : null,
    (options.reports ?? []).length > 0 ? '--report' : null,
    options.history === undefined ? null : '--history',
    options.jepsenHistory === undefined ? null : '--jepsen-history',
    options.exportScenario === undefined ? null : '--export-scenario',
  ].filter((flag): flag is string => flag !== null);
  if (clashing.length > 0) {
    throw new UsageError(
      `--until prints the cluster state at a moment; it cannot be combined with ` +
        clashing.join(', '),
    );
  }
}

/** Runs `eos-sim run … --until …` and returns its exit code (0 unless it throws). */
export function untilCommand(
  options: RunCommandOptions,
  input: { readonly seed: string; readonly context: CliContext },
): ExitCode {
  const { seed, context } = input;
  const until = parseUntil(options.until ?? '');
  checkUntilFlags(options);
  const loaded = loadScenario(options.scenario);
  const { stdout, stderr } = context.io;
  const aside = options.json ? stderr : stdout;
  aside.write(`seed=${seed}\n`);
  const drawn = options.swarm === true ? drawSwarm(loaded, seed) : undefined;
  const scenario = drawn?.scenario ?? loaded;
  if (drawn !== undefined) aside.write(swarmLines(drawn.parameters).join('\n') + '\n');
  const swarm = drawn === undefined ? {} : { swarm: drawn.parameters };
  let state: ClusterState;
  let budgetError: string | undefined;
  if (until.kind === 'first-anomaly') {
    const replay = replayToFirstAnomaly(scenario, { seed, ...swarm });
    if (replay === null) {
      stderr.write(`No anomaly with a time on seed ${seed}: nothing to replay to\n`);
      return EXIT_CODES.ok;
    }
    state = replay.state;
  } else {
    const replay = replayTo(scenario, {
      seed,
      limit: until.limit,
      stoppedBy: until.text,
      ...swarm,
    });
    state = replay.state;
    budgetError = replay.budgetError;
  }
  stdout.write(
    options.json
      ? `${JSON.stringify(state, null, 2)}\n`
      : renderClusterState(state, { colour: context.colour }),
  );
  // As `run` without --until ends such a seed: the budget, not the moment, stopped the replay.
  return budgetError === undefined ? EXIT_CODES.ok : EXIT_CODES.budgetExceeded;
}
