/**
 * The cross-key rules of a scenario's faults (`faults:`) and random nemesis (`nemesis:`): every
 * node a fault names must be a broker or client of the scenario, or a reference to one that is
 * resolved when the fault starts (`leader:<topic>-<partition>` of an existing partition,
 * `coordinator:<transactional.id>` of a producer's id); a split's minority must be a strict
 * minority of the brokers; a bridge needs three brokers; the nemesis's duration range must not
 * be empty.
 */
import type { FaultEntry, ScenarioFile } from './schema';

/** A broken rule: the key's path and what is wrong. */
interface Problem {
  readonly path: ReadonlyArray<string | number>;
  readonly detail: string;
}

/** What the rules know about the scenario. */
export interface FaultContext {
  /** Brokers and clients. */
  readonly nodes: readonly string[];
  readonly brokers: readonly string[];
  /** Partition count per topic. */
  readonly topics: ReadonlyMap<string, number>;
  /** Every producer's transactional.id. */
  readonly transactionalIds: readonly string[];
  /** Every pipeline's group.id. */
  readonly groupIds: readonly string[];
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

/** Why `text` is not a topic-partition of the scenario, or undefined when it is one. */
export function topicPartitionProblem(text: string, context: FaultContext): string | undefined {
  const match = /^(.+)-(\d+)$/.exec(text);
  const count = match === null ? undefined : context.topics.get(match[1] as string);
  if (match !== null && count !== undefined && Number(match[2]) < count) return undefined;
  const known = [...context.topics].map(([topic, count]) => `${topic}-0..${topic}-${count - 1}`);
  return `unknown topic-partition ${text}: expected one of ${known.join(', ')}`;
}

/** Why `ref` names no node of the scenario, or undefined when it names one. */
export function nodeProblem(ref: string, context: FaultContext): string | undefined {
  if (ref.startsWith('leader:')) return topicPartitionProblem(ref.slice(7), context);
  if (ref.startsWith('group-coordinator:')) {
    const id = ref.slice('group-coordinator:'.length);
    if (context.groupIds.includes(id)) return undefined;
    const known = context.groupIds.join(', ') || 'none';
    return `unknown group.id ${id}: expected one of ${known}`;
  }
  if (ref.startsWith('coordinator:')) {
    const id = ref.slice(12);
    if (context.transactionalIds.includes(id)) return undefined;
    const known = context.transactionalIds.join(', ') || 'none';
    return `unknown transactional.id ${id}: expected one of ${known}`;
  }
  if (context.nodes.includes(ref)) return undefined;
  return (
    `unknown node ${ref}: expected one of ${context.nodes.join(', ')}, ` +
    'leader:<topic>-<partition>, coordinator:<transactional.id> or ' +
    'group-coordinator:<group.id>'
  );
}

/** Adds a problem for every broken rule of one fault. */
export function checkFault(options: {
  readonly fault: FaultEntry;
  readonly index: number;
  readonly context: FaultContext;
  readonly problems: Problem[];
}): void {
  const { fault, index, context, problems } = options;
  const check = (ref: string | undefined, ...path: Array<string | number>): void => {
    const detail = ref === undefined ? undefined : nodeProblem(ref, context);
    if (detail !== undefined) problems.push({ path: ['faults', index, ...path], detail });
  };
  switch (fault.kind) {
    case 'pause':
    case 'crash':
    case 'power-loss':
    case 'isolate':
    case 'clock-skew':
      return check(fault.target, 'target');
    case 'drop':
    case 'duplicate':
    case 'delay':
    case 'hold':
      check(fault.from, 'from');
      return check(fault.to, 'to');
    case 'partition':
      return checkPartition({ fault, index, context, problems, check });
    case 'split':
    case 'bridge':
      return checkBrokerSplit({ fault, index, context, problems });
    case 'unclean-election': {
      const detail = topicPartitionProblem(fault.partition, context);
      if (detail !== undefined) problems.push({ path: ['faults', index, 'partition'], detail });
      return;
    }
    case 'coordinator-failover':
      return checkCoordinatorFailover({ fault, index, context, problems, check });
    case 'operator':
      return checkOperator({ fault, index, context, problems });
  }
}

/** A coordinator failover names exactly one of transactional.id and group.id, a known one. */
function checkCoordinatorFailover(options: {
  readonly fault: FaultEntry & { kind: 'coordinator-failover' };
  readonly index: number;
  readonly context: FaultContext;
  readonly problems: Problem[];
  readonly check: (ref: string | undefined, ...path: Array<string | number>) => void;
}): void {
  const { fault, index, problems, check } = options;
  const transactionalId = fault['transactional.id'];
  const groupId = fault['group.id'];
  if ((transactionalId === undefined) === (groupId === undefined)) {
    const detail = 'give exactly one of transactional.id and group.id';
    problems.push({ path: ['faults', index, 'kind'], detail });
    return;
  }
  if (groupId !== undefined) return check(`group-coordinator:${groupId}`, 'group.id');
  check(`coordinator:${transactionalId}`, 'transactional.id');
}

function checkPartition(options: {
  readonly fault: FaultEntry & { kind: 'partition' };
  readonly index: number;
  readonly context: FaultContext;
  readonly problems: Problem[];
  readonly check: (ref: string | undefined, ...path: Array<string | number>) => void;
}): void {
  const { fault, index, context, problems, check } = options;
  fault.nodes.forEach((node, position) => check(node, 'nodes', position));
  fault.between?.forEach((node, position) => {
    check(node, 'between', position);
    if (fault.nodes.includes(node)) {
      problems.push({
        path: ['faults', index, 'between', position],
        detail: `${node} is also in nodes`,
      });
    }
  });
  if (fault.between === undefined && context.nodes.every((node) => fault.nodes.includes(node))) {
    const detail = 'must leave at least one node on the other side';
    problems.push({ path: ['faults', index, 'nodes'], detail });
  }
}

function checkBrokerSplit(options: {
  readonly fault: FaultEntry & { kind: 'split' | 'bridge' };
  readonly index: number;
  readonly context: FaultContext;
  readonly problems: Problem[];
}): void {
  const { fault, index, context, problems } = options;
  const brokers = context.brokers;
  const notBroker = (name: string): string =>
    `unknown broker ${name}: expected one of ${brokers.join(', ')}`;
  if (fault.kind === 'bridge') {
    if (brokers.length < 3) {
      problems.push({ path: ['faults', index, 'kind'], detail: 'bridge needs at least 3 brokers' });
    } else if (fault.bridge !== undefined && !brokers.includes(fault.bridge)) {
      problems.push({ path: ['faults', index, 'bridge'], detail: notBroker(fault.bridge) });
    }
    return;
  }
  const minority = fault.minority ?? [];
  minority.forEach((name, position) => {
    if (!brokers.includes(name)) {
      problems.push({ path: ['faults', index, 'minority', position], detail: notBroker(name) });
    }
  });
  const size =
    fault.minority === undefined ? Math.floor((brokers.length - 1) / 2) : minority.length;
  if (size < 1 || size * 2 >= brokers.length) {
    const detail = `must be a strict minority of the ${brokers.length} brokers, at least one`;
    problems.push({
      path: ['faults', index, fault.minority === undefined ? 'kind' : 'minority'],
      detail,
    });
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

/** An operator action names a topic (and partition) of the scenario; start.offset needs abort. */
function checkOperator(options: {
  readonly fault: FaultEntry & { kind: 'operator' };
  readonly index: number;
  readonly context: FaultContext;
  readonly problems: Problem[];
}): void {
  const { fault, index, context, problems } = options;
  const count = context.topics.get(fault.topic);
  if (count === undefined) {
    const known = [...context.topics.keys()].join(', ');
    problems.push({
      path: ['faults', index, 'topic'],
      detail: `unknown topic ${fault.topic}: expected one of ${known}`,
    });
    return;
  }
  if (fault.partition !== undefined && fault.partition >= count) {
    problems.push({
      path: ['faults', index, 'partition'],
      detail: `must be below the partition count of ${fault.topic}: ${count}`,
    });
  }
  if (fault['start.offset'] === undefined) return;
  if (fault.action !== 'abort') {
    problems.push({ path: ['faults', index, 'start.offset'], detail: 'only abort takes it' });
  } else if (fault.partition === undefined) {
    problems.push({ path: ['faults', index, 'start.offset'], detail: 'needs partition' });
  }
}
