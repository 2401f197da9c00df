/**
 * The cross-key rules of a scenario's random nemesis (`nemesis:`): its targets must be nodes of
 * the scenario, and its duration range must not be empty.
 */

/** A broken rule: the key's path and what is wrong. */
interface Problem {
  readonly path: ReadonlyArray<string | number>;
  readonly detail: string;
}

/** The `nemesis:` section as the schema parsed it. */
interface NemesisEntry {
  readonly targets?: readonly string[] | undefined;
  readonly 'duration.ms.min': number;
  readonly 'duration.ms.max': number;
}

/**
 * Adds a problem for every unknown target and for a maximum duration below the minimum.
 * @example checkNemesis({ nemesis: undefined, nodes: ['b1'], problems }) // adds nothing
 */
export function checkNemesis(options: {
  readonly nemesis: NemesisEntry | undefined;
  readonly nodes: readonly string[];
  readonly problems: Problem[];
}): void {
  const { nemesis, nodes, problems } = options;
  if (nemesis === undefined) return;
  (nemesis.targets ?? []).forEach((target, index) => {
    if (nodes.includes(target)) return;
    const detail = `unknown node ${target}: expected one of ${nodes.join(', ')}`;
    problems.push({ path: ['nemesis', 'targets', index], detail });
  });
  if (nemesis['duration.ms.max'] < nemesis['duration.ms.min']) {
    const detail = `must be >= duration.ms.min: ${nemesis['duration.ms.min']}`;
    problems.push({ path: ['nemesis', 'duration.ms.max'], detail });
  }
}
