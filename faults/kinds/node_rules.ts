/**
 * The cross-key rules every fault kind shares: a node a fault names must be a broker or client
 * of the scenario, or a reference resolved when the fault starts (`leader:<topic>-<partition>` of
 * an existing partition, `coordinator:<transactional.id>` of a producer's id,
 * `group-coordinator:<group.id>` of a pipeline's group).
 */
import { COORDINATOR_REF, GROUP_COORDINATOR_REF, LEADER_REF } from '../cluster_view';
import type { FaultContext, FaultProblem } from './fault_kind';

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
  if (ref.startsWith(LEADER_REF)) {
    return topicPartitionProblem(ref.slice(LEADER_REF.length), context);
  }
  if (ref.startsWith(GROUP_COORDINATOR_REF)) {
    const id = ref.slice(GROUP_COORDINATOR_REF.length);
    if (context.groupIds.includes(id)) return undefined;
    const known = context.groupIds.join(', ') || 'none';
    return `unknown group.id ${id}: expected one of ${known}`;
  }
  if (ref.startsWith(COORDINATOR_REF)) {
    const id = ref.slice(COORDINATOR_REF.length);
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

/** The problem of one node-valued key, if any (`ref` undefined: the key is absent). */
export function checkNode(
  ref: string | undefined,
  context: FaultContext,
  ...path: Array<string | number>
): FaultProblem[] {
  const detail = ref === undefined ? undefined : nodeProblem(ref, context);
  return detail === undefined ? [] : [{ path, detail }];
}
