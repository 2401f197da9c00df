/**
 * The cross-key rules of a scenario's faults (`faults:`) and random nemesis (`nemesis:`). Each
 * fault kind's module states its own (`faults/kinds/`: every node a fault names must be a broker
 * or client of the scenario, or a reference resolved when the fault starts; a split's minority
 * must be a strict minority of the brokers; …); here they are gathered with the item's path,
 * and the nemesis's targets and duration range are checked.
 */
import { faultEntryProblems, type FaultContext } from '../faults';
import type { FaultEntry, ScenarioFile } from './schema';

export type { FaultContext };

/** A broken rule: the key's path and what is wrong. */
interface Problem {
  readonly path: ReadonlyArray<string | number>;
  readonly detail: string;
}

/**
 * The fault context of a scenario file.
 * @example faultContextOf(file, ['b1', 'b2', 'b3']).nodes // ['b1', 'b2', 'b3', 'A', 'reader']
 */
export function faultContextOf(scenario: ScenarioFile, brokers: readonly string[]): FaultContext {
  const transactionalIds: string[] = [];
  const groupIds: string[] = [];
  for (const client of scenario.clients) {
    const id = client.config['transactional.id'];
    if (id !== undefined && !transactionalIds.includes(id)) transactionalIds.push(id);
    const groupId = client.config['group.id'];
    if (groupId !== undefined && !groupIds.includes(groupId)) groupIds.push(groupId);
  }
  return {
    nodes: [...brokers, ...scenario.clients.map((client) => client.name)],
    brokers,
    topics: new Map(scenario.cluster.topics.map((topic) => [topic.name, topic.partitions])),
    transactionalIds,
    groupIds,
  };
}

/** Adds a problem for every broken rule of one fault (its kind's module states them). */
export function checkFault(options: {
  readonly fault: FaultEntry;
  readonly index: number;
  readonly context: FaultContext;
  readonly problems: Problem[];
}): void {
  const { fault, index, context, problems } = options;
  for (const problem of faultEntryProblems(fault, context)) {
    problems.push({ path: ['faults', index, ...problem.path], detail: problem.detail });
  }
}

/** The `nemesis:` section as the schema parsed it. */
interface NemesisEntry {
  readonly targets?: readonly string[] | undefined;
  readonly 'duration.ms.min': number;
  readonly 'duration.ms.max': number;
}

/**
 * Adds a problem for every unknown target and for a maximum duration below the minimum.
 * @example checkNemesis({ nemesis: undefined, context, problems }) // adds nothing
 */
export function checkNemesis(options: {
  readonly nemesis: NemesisEntry | undefined;
  readonly context: FaultContext;
  readonly problems: Problem[];
}): void {
  const { nemesis, context, problems } = options;
  if (nemesis === undefined) return;
  (nemesis.targets ?? []).forEach((target, index) => {
    if (context.nodes.includes(target)) return;
    const detail = `unknown node ${target}: expected one of ${context.nodes.join(', ')}`;
    problems.push({ path: ['nemesis', 'targets', index], detail });
  });
  if (nemesis['duration.ms.max'] < nemesis['duration.ms.min']) {
    const detail = `must be >= duration.ms.min: ${nemesis['duration.ms.min']}`;
    problems.push({ path: ['nemesis', 'duration.ms.max'], detail });
  }
}
