/**
 * The resolved faults and random nemesis of a scenario: what the loader produces from `faults:`
 * and `nemesis:` and the runner hands to the nemesis in `faults/`. Times are milliseconds from
 * the start of the run. A node is a broker, a client, or a reference resolved when the fault
 * starts: `leader:<topic>-<partition>` or `coordinator:<transactional.id>`. Each fault records
 * the 1-based `line` of its list item when it came from a file.
 */

/** An exact probability. */
export interface RatioSpec {
  readonly numerator: number;
  readonly denominator: number;
}

interface Timed {
  readonly atMs: number;
  readonly line?: number;
}

/** A scripted fault (`faults:`). */
export type FaultSpec =
  | (Timed & { readonly kind: 'pause'; readonly target: string; readonly forMs: number })
  | (Timed & {
      readonly kind: 'crash';
      readonly target: string;
      /** Restart after this long; null keeps it down until the heal phase. */
      readonly forMs: number | null;
      readonly mode: 'process' | 'power-loss';
    })
  | (Timed & {
      readonly kind: 'drop' | 'duplicate' | 'delay' | 'hold';
      /** Source node; null matches every node. */
      readonly from: string | null;
      /** Target node; null matches every node. */
      readonly to: string | null;
      /** Kafka message kinds (`ProduceResponse`); empty matches all. */
      readonly messages: readonly string[];
      /** For drop and duplicate: the probability, as an exact ratio. */
      readonly probability: RatioSpec;
      /** Only the first this many matching messages; null: every one. */
      readonly count: number | null;
      /** For delay: extra delay per message. */
      readonly delayMs: number;
      readonly forMs: number;
    })
  | (Timed & {
      readonly kind: 'partition';
      /** Nodes on one side; `between` lists the other side. */
      readonly nodes: readonly string[];
      readonly between: readonly string[];
      /** `one-way` drops only messages from `nodes` to `between`. @default 'both' */
      readonly direction: 'both' | 'one-way';
      readonly forMs: number;
    })
  | (Timed & {
      readonly kind: 'split';
      readonly minority: readonly string[];
      readonly majority: readonly string[];
      readonly forMs: number;
    })
  | (Timed & {
      readonly kind: 'bridge';
      readonly bridge: string;
      readonly left: readonly string[];
      readonly right: readonly string[];
      readonly forMs: number;
    })
  | (Timed & {
      readonly kind: 'clock-skew';
      readonly target: string;
      readonly skewMs: number;
      readonly forMs: number | null;
    })
  | (Timed & {
      readonly kind: 'unclean-election';
      readonly topic: string;
      readonly partition: number;
    })
  | (Timed & {
      readonly kind: 'coordinator-failover';
      /** Whose coordinator: a transactional.id's or a group.id's (FindCoordinator keyType). */
      readonly keyType: 'transaction' | 'group';
      /** The transactional.id or group.id. */
      readonly key: string;
      readonly forMs: number | null;
      readonly mode: 'process' | 'power-loss';
    })
  | (Timed & {
      readonly kind: 'operator';
      readonly action: 'describe-producers' | 'find-hanging' | 'abort';
      readonly topic: string;
      /** null: every partition of the topic. */
      readonly partition: number | null;
      /** abort only; null: abort whatever find-hanging reports. */
      readonly startOffset: number | null;
      /** `--max-transaction-timeout` of find-hanging, in ms. @default 900000 */
      readonly maxTransactionTimeoutMs: number;
    });

/** The kinds a random nemesis draws from (`nemesis.kinds`). */
export type RandomFaultKindSpec =
  | 'crash'
  | 'power-loss'
  | 'pause'
  | 'partition'
  | 'one-way'
  | 'split'
  | 'bridge'
  | 'drop'
  | 'duplicate'
  | 'delay'
  | 'hold'
  | 'clock-skew'
  | 'unclean-election'
  | 'coordinator-failover';

/** A random nemesis (`nemesis:`): faults drawn from the seed. Times in milliseconds. */
export interface RandomNemesisConfig {
  readonly kinds: readonly RandomFaultKindSpec[];
  /** @default every broker */
  readonly targets: readonly string[];
  /** Every broker and client: a partition cuts the target off from all of them. */
  readonly nodes: readonly string[];
  /** The brokers, for splits and bridges. */
  readonly brokers: readonly string[];
  /** @default 0 */
  readonly startMs: number;
  /** @default run.duration.ms */
  readonly stopMs: number;
  readonly intervalMs: number;
  readonly durationMsMin: number;
  readonly durationMsMax: number;
  /** The scenario's timeouts when `timeout.aware` is true, else empty. */
  readonly timeoutsMs: readonly number[];
  /** `probability` of drop and duplicate faults. @default 0.1 */
  readonly probability: RatioSpec;
  /** Every topic-partition, for unclean elections. */
  readonly partitions: ReadonlyArray<{ readonly topic: string; readonly partition: number }>;
  /** Every producer's transactional.id, for coordinator failovers. */
  readonly transactionalIds: readonly string[];
  /** Every pipeline's group.id, for group coordinator failovers. */
  readonly groupIds: readonly string[];
}
