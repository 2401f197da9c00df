/**
 * What one fault kind is made of, in one module under `faults/kinds/`: the schema of its
 * `faults:` entries, the cross-key rules that need the scenario, the resolution of an entry into
 * the resolved fault, the entry the scenario writer prints back, its description in the history,
 * whether Kafka's guarantee covers it, its effect on the kernel, the random nemesis's draw of it
 * and its row of docs/scenarios.md. Every kind is registered once, in `index.ts`; the loader,
 * writer, nemesis and random nemesis read the registry and name no kind themselves.
 */
import type { z } from 'zod';
import type { Rng, Simulation } from '../../sim/kernel';
import type { ClusterView } from '../cluster_view';
import type { FaultTrigger } from '../trigger';

/**
 * Fields every resolved fault has: its kind and start time, ms from the start of the run or,
 * with a trigger (`on:`), after it.
 */
export interface FaultBase {
  readonly kind: string;
  readonly atMs: number;
  readonly on?: FaultTrigger;
}

/** A started fault: what it did, and how to end it (null when there is nothing to end). */
export interface StartedFault {
  readonly description: string;
  readonly end: (() => void) | null;
  /** The fault's outcome is recorded by its own node later (an operator action). */
  readonly endRecordedLater?: boolean;
}

/** What a fault start needs. */
export interface FaultWorld {
  readonly sim: Simulation;
  readonly view: ClusterView;
  /** The fault's own stream (drop and duplicate chances). */
  readonly rng: Rng;
}

/** The scenario's nodes: brokers and clients (for resolution and the random nemesis). */
export interface NodeSet {
  readonly brokers: readonly string[];
  readonly nodes: readonly string[];
}

/** What the cross-key rules know about the scenario. */
export interface FaultContext extends NodeSet {
  /** The controller's node id: a target of node faults too. */
  readonly controller: string;
  /** Partition count per topic. */
  readonly topics: ReadonlyMap<string, number>;
  /** Every producer's transactional.id. */
  readonly transactionalIds: readonly string[];
  /** Every pipeline's group.id. */
  readonly groupIds: readonly string[];
}

/** A broken cross-key rule: the key's path below the fault's list item, and what is wrong. */
export interface FaultProblem {
  readonly path: ReadonlyArray<string | number>;
  readonly detail: string;
}

/** The random nemesis's settings a kind's draw may read (see `random_nemesis.ts`). */
export interface DrawSpec extends NodeSet {
  readonly timeoutsMs: readonly number[];
  readonly durationMsMin: number;
  readonly durationMsMax: number;
  /** The chance a drop or duplicate fault applies to each matching message. */
  readonly probability: { readonly numerator: number; readonly denominator: number };
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
  readonly transactionalIds: readonly string[];
  readonly groupIds: readonly string[];
}

/** One draw of the random nemesis: the kind, node, start and duration already drawn. */
export interface Draw {
  readonly kind: string;
  readonly target: string;
  readonly atMs: number;
  readonly forMs: number;
  readonly spec: DrawSpec;
  readonly rng: Rng;
  /** A further duration from the spec (a delay fault's extra delay). */
  readonly duration: () => number;
}

/** A row of the fault-kind table of docs/scenarios.md. */
export interface FaultDocsRow {
  readonly kind: string;
  readonly keys: string;
  readonly effect: string;
  readonly eos: string;
}

/** A fault kind: everything about it in one place. `F` is its resolved fault. */
export interface FaultKind<F extends FaultBase> {
  /** The `kind:` names of its `faults:` entries, each with the schema of the entry. */
  readonly entries: Readonly<Record<string, z.ZodObject>>;
  /** The resolved kinds it produces (`F['kind']`). */
  readonly kinds: readonly F['kind'][];
  /** Problems of a parsed entry that need the scenario (unknown nodes, partitions). */
  check?(entry: never, context: FaultContext): FaultProblem[];
  /** A parsed entry (one of `entries`) → the resolved fault. */
  resolve(entry: never, nodes: NodeSet): F;
  /** The resolved fault → its `faults:` entry (what `--export-scenario` writes). */
  entryOf(fault: F): Record<string, unknown>;
  /** How the history and the report name it. */
  describe(fault: F): string;
  /** When it ends by itself, ms; null: at the heal phase, or at once when it has no duration. */
  endMs(fault: F): number | null;
  /**
   * How long after it ends its effects may still be felt, ms; the heal phase waits that long on
   * top of `run.heal.ms`: the longest extra delay it gives a message, or how far a skewed clock
   * steps back at its end.
   */
  aftermathMs?(fault: F): number;
  /** Starts it on kernel primitives; returns what it did and how to end it. */
  start(fault: F, world: FaultWorld): StartedFault;
  /** The random nemesis's kinds (`nemesis.kinds`) this module draws, and the draw. */
  readonly random?: {
    readonly kinds: readonly string[];
    draw(draw: Draw): F | null;
  };
  /** Its rows of docs/scenarios.md. */
  readonly docs: readonly FaultDocsRow[];
}

/** Declares a fault kind (keeps `F` inferred from the module). */
export function defineFaultKind<F extends FaultBase>(kind: FaultKind<F>): FaultKind<F> {
  return kind;
}

/** ` for 5000 ms`, or nothing when the fault lasts until the heal phase. */
export function lasting(forMs: number | null): string {
  return forMs === null ? '' : ` for ${forMs} ms`;
}

/** The end of a fault with a duration: `atMs + forMs`, or null without one. */
export function endOf(fault: { readonly atMs: number; readonly forMs: number | null }) {
  return fault.forMs === null ? null : fault.atMs + fault.forMs;
}

/** A fault that could not start: its references name no node now. */
export function skipped(description: string, why: string): StartedFault {
  return { description: `${description} (skipped: ${why})`, end: null };
}

/** ` (leader:orders-0 = b2)` after a reference that resolved, nothing after a plain node. */
export function resolvedNote(ref: string, node: string): string {
  return ref === node ? '' : ` (${ref} = ${node})`;
}
