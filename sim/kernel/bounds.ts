/**
 * Named bounds on long-lived collections (style rule 32), the mechanism that enforces them, and
 * the kernel's own bounds. A collection that grows past its bound ends the run with
 * {@link CollectionBoundExceededError}, which names the collection: the runner reports it as the
 * `budget-exceeded` outcome (exit 4) instead of a silent drop or an out-of-memory crash. A bound
 * is checked where an item is added ({@link BoundedMap.set}, {@link BoundedSet.add},
 * {@link pushWithin}); checking never changes a run. The Kafka model's bounds are listed in
 * `sim/actors/protocol/collection_bounds.ts`, and docs/scenarios.md lists both.
 */
import { BudgetExceededError } from './budget';

/** A collection's most entries, and where the number comes from. */
export interface CollectionBound {
  /** The constant's name, e.g. `HELD_MESSAGES_PER_RULE_MAX`. */
  readonly name: string;
  /** What is bounded, in words: `messages held by one link rule`. */
  readonly collection: string;
  /** The most entries; one more raises the error. */
  readonly max: number;
}

/** A collection outgrew its named bound; a budget error, so the run ends `budget-exceeded`. */
export class CollectionBoundExceededError extends BudgetExceededError {
  constructor(readonly bound: CollectionBound) {
    super(`Collection bound exceeded: ${bound.collection} past ${bound.max} (${bound.name})`);
    this.name = 'CollectionBoundExceededError';
  }
}

/** Throws {@link CollectionBoundExceededError} when `size` is past `bound.max`. */
export function checkBound(bound: CollectionBound, size: number): void {
  if (size > bound.max) throw new CollectionBoundExceededError(bound);
}

/**
 * Pushes `item` onto `array` within `bound`; returns the new length as `push` does.
 * @example pushWithin(LOG_BATCHES_MAX, this.batches, batch)
 */
export function pushWithin<T>(bound: CollectionBound, array: T[], item: T): number {
  const length = array.push(item);
  checkBound(bound, length);
  return length;
}

/** A Map that raises its bound's error when an insertion takes it past the bound. */
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(
    readonly bound: CollectionBound,
    entries: Iterable<readonly [K, V]> = [],
  ) {
    super();
    for (const [key, value] of entries) this.set(key, value);
  }

  override set(key: K, value: V): this {
    super.set(key, value);
    checkBound(this.bound, this.size);
    return this;
  }
}

/** A Set that raises its bound's error when an insertion takes it past the bound. */
export class BoundedSet<T> extends Set<T> {
  constructor(
    readonly bound: CollectionBound,
    values: Iterable<T> = [],
  ) {
    super();
    for (const value of values) this.add(value);
  }

  override add(value: T): this {
    super.add(value);
    checkBound(this.bound, this.size);
    return this;
  }
}

/**
 * The kernel's bounds. Each is far above what a run within the scenario limits
 * (sim/config/limits.ts: 100 brokers, 100 clients, 100000000 events) reaches, so reaching one
 * means a runaway loop, not a large scenario.
 */
export const KERNEL_BOUNDS = {
  /**
   * Messages one hold rule keeps at once. A hold (a partition) keeps every matching message
   * until the rule is removed; past this a run is stuck in a loop of sends, not modelling an
   * outage.
   */
  heldMessagesPerRule: {
    name: 'HELD_MESSAGES_PER_RULE_MAX',
    collection: 'messages held by one link rule',
    max: 1_000_000,
  },
  /** Link rules installed at once: faults and test cuts (a fault installs a few). */
  linkRules: { name: 'LINK_RULES_MAX', collection: 'installed link rules', max: 100_000 },
  /** Nodes of one run: the controller, at most 100 brokers and 100 clients, and test nodes. */
  nodes: { name: 'NODES_MAX', collection: 'simulation nodes', max: 1_000 },
  /** Distinct connection names of the lane map (see `lanes.ts`). */
  lanes: { name: 'LANES_MAX', collection: 'connection names of the lane map', max: 10_000 },
  /** Distinct event kinds (message kinds and timer labels) the trace hash numbers. */
  eventKinds: { name: 'EVENT_KINDS_MAX', collection: 'distinct event kinds', max: 100_000 },
  /** Events deferred at one paused node until it resumes (a GC pause). */
  deferredPerNode: {
    name: 'DEFERRED_EVENTS_PER_NODE_MAX',
    collection: 'events deferred at one paused node',
    max: 1_000_000,
  },
  /** Delivery watchers (fault triggers) of one run. */
  deliveryWatchers: {
    name: 'DELIVERY_WATCHERS_MAX',
    collection: 'delivery watchers',
    max: 100_000,
  },
} as const satisfies Record<string, CollectionBound>;
