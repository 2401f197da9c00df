/**
 * The registry of fault kinds: each kind is one module of this folder, listed once here. Every
 * other part of the tool (the schema and the loader in `scenarios/`, the scenario writer, the
 * nemesis, the random nemesis, docs/scenarios.md's table test) reads this list and names no
 * kind itself, so a new kind is a new module here and one line below.
 */
import type { FaultBase, FaultContext, FaultKind, FaultProblem, NodeSet } from './fault_kind';
import { checkNode } from './node_rules';
import { resolveTrigger, triggerEntryOf, type FaultTrigger, type triggerSchema } from '../trigger';
import type { z } from 'zod';
import { bridgeKind, splitKind } from './split';
import { clockSkewKind } from './clock_skew';
import { coordinatorFailoverKind } from './coordinator_failover';
import { crashKind } from './crash';
import { linkKind } from './link';
import { logDirFailureKind } from './log_dir_failure';
import { operatorKind } from './operator';
import { partitionKind } from './partition';
import { pauseKind } from './pause';
import { produceErrorKind } from './produce_error';
import { slowNodeKind } from './slow_node';
import { uncleanElectionKind } from './unclean_election';

/** Every fault kind, in the order the docs list them. */
export const FAULT_KIND_MODULES = [
  pauseKind,
  crashKind,
  linkKind,
  partitionKind,
  splitKind,
  bridgeKind,
  clockSkewKind,
  uncleanElectionKind,
  coordinatorFailoverKind,
  operatorKind,
  slowNodeKind,
  produceErrorKind,
  logDirFailureKind,
] as const;

type ResolvedOf<K> = K extends FaultKind<infer F> ? F : never;

/** Any resolved fault: the union of every registered kind's, with its trigger if it has one. */
export type ScriptedFault = ResolvedOf<(typeof FAULT_KIND_MODULES)[number]> & {
  readonly on?: FaultTrigger;
};

/** Every resolved fault kind. */
export type FaultKindName = ScriptedFault['kind'];

const modules: ReadonlyArray<FaultKind<FaultBase>> = FAULT_KIND_MODULES as never;

const byResolvedKind = new Map(modules.flatMap((m) => m.kinds.map((kind) => [kind, m] as const)));
const byEntryKind = new Map(
  modules.flatMap((m) => Object.keys(m.entries).map((kind) => [kind, m] as const)),
);
const byRandomKind = new Map(
  modules.flatMap((m) => (m.random?.kinds ?? []).map((kind) => [kind, m] as const)),
);

/** The module of a resolved fault. */
export function kindOf<F extends ScriptedFault>(fault: F): FaultKind<F> {
  const module = byResolvedKind.get(fault.kind);
  if (module === undefined) throw new Error(`Unregistered fault kind: ${fault.kind}`);
  return module as unknown as FaultKind<F>;
}

/** The `kind:` names of `faults:` entries, in registry order. */
export const FAULT_ENTRY_KINDS: readonly string[] = [...byEntryKind.keys()];

/** The `nemesis.kinds` names, in registry order. */
export const RANDOM_FAULT_KINDS: readonly string[] = [...byRandomKind.keys()];

/** The module of a random nemesis kind. */
export function randomKindOf(kind: string): FaultKind<FaultBase> {
  const module = byRandomKind.get(kind);
  if (module === undefined) throw new Error(`Unexpected random fault kind: ${kind}`);
  return module;
}

/** The schemas of every `faults:` entry kind, for the loader's discriminated union. */
export function faultEntrySchemas() {
  return modules.flatMap((m) => Object.values(m.entries));
}

/** A parsed `faults:` entry (by the schemas above) → the resolved fault. */
export function resolveFaultEntry(entry: { readonly kind: string }, nodes: NodeSet): ScriptedFault {
  const module = byEntryKind.get(entry.kind);
  if (module === undefined) throw new Error(`Unexpected fault kind: ${entry.kind}`);
  const resolved = module.resolve(entry as never, nodes) as ScriptedFault;
  const on = (entry as { on?: z.infer<typeof triggerSchema> }).on;
  return on === undefined ? resolved : { ...resolved, on: resolveTrigger(on) };
}

/** The cross-key problems of a parsed entry, paths below its list item. */
export function faultEntryProblems(
  entry: { readonly kind: string },
  context: FaultContext,
): FaultProblem[] {
  const on = (entry as { on?: z.infer<typeof triggerSchema> }).on;
  const triggerProblems =
    on === undefined
      ? []
      : [...checkNode(on.from, context, 'on', 'from'), ...checkNode(on.to, context, 'on', 'to')];
  return [
    ...(byEntryKind.get(entry.kind)?.check?.(entry as never, context) ?? []),
    ...triggerProblems,
  ];
}

/** The `faults:` entry that resolves to `fault` (the scenario writer). */
export function faultEntryOf(fault: ScriptedFault): Record<string, unknown> {
  const entry = kindOf(fault).entryOf(fault);
  return fault.on === undefined ? entry : { ...entry, on: triggerEntryOf(fault.on) };
}

/** A one-line description of a fault, in the words reports use. */
export function describeFault(fault: ScriptedFault): string {
  return kindOf(fault).describe(fault);
}

/** The end of a fault in ms, or null when it lasts until the heal phase (or is instantaneous). */
export function faultEndMs(fault: ScriptedFault): number | null {
  return kindOf(fault).endMs(fault);
}

export type {
  Draw,
  DrawSpec,
  FaultContext,
  FaultDocsRow,
  FaultKind,
  FaultProblem,
  FaultWorld,
  NodeSet,
  StartedFault,
} from './fault_kind';
export { nodeProblem, topicPartitionProblem } from './node_rules';
export {
  PROBABILITY_DENOMINATOR,
  probability,
  probabilityOf,
  ratioOf,
  type LinkFault,
} from './link';
export { OPERATOR_ACTIONS, type OperatorFault } from './operator';
export type { PauseFault } from './pause';
export type { CrashFault } from './crash';
export type { PartitionFault } from './partition';
export type { BridgeFault, SplitFault } from './split';
export type { ClockSkewFault } from './clock_skew';
export type { UncleanElectionFault } from './unclean_election';
export type { CoordinatorFailoverFault } from './coordinator_failover';
export type { SlowNodeFault } from './slow_node';
