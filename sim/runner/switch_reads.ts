/**
 * Which bug switches a run consulted. The model reads each switch at the point where the buggy
 * and the fixed release part ways (a `bugs:` flag of an actor's options), so a run that never
 * read switch X ran the same events with X on as with X off: up to the first read the two runs
 * are the same run (one seed, one universe), and without a read there is no place left where
 * they could part. `eos-sim mutants` uses this to skip the run of a switch whose control run
 * never consulted it, and reports carry the list so a reproducer's user sees that its switch was
 * reached.
 *
 * The flags are accessor properties that record the read, so an options object must be passed
 * on by reference: spreading it (`{ ...options }`) reads every switch at once, which is sound
 * (a read too many only costs a skipped run) but makes every switch look consulted.
 */
import type { BugId } from '../../scenarios';

/** The switches one run consulted, in the order of their first read. */
export class SwitchReads {
  private readonly consulted = new Set<BugId>();

  /** Records a read of `id`. */
  read(id: BugId): void {
    this.consulted.add(id);
  }

  /** The switches read so far, sorted. */
  list(): BugId[] {
    return [...this.consulted].sort();
  }
}

/** One flag of an options object: its value and the switch it stands for. */
export interface SwitchFlag {
  readonly id: BugId;
  readonly value: boolean;
}

/** The flag true while switch `id` is on in `bugs`. */
export function whileOn(bugs: Readonly<Record<BugId, boolean>>, id: BugId): SwitchFlag {
  return { id, value: bugs[id] === true };
}

/**
 * The flag true while switch `id` is off in `bugs`: a flag that names the fixed behaviour
 * (`leaderEpochTruncation` is KAFKA-1211 off).
 */
export function whileOff(bugs: Readonly<Record<BugId, boolean>>, id: BugId): SwitchFlag {
  return { id, value: bugs[id] !== true };
}

/**
 * An object with one read-only boolean property per entry of `flags`, each recording a read of
 * its switch in `reads` every time it is read.
 * @example switchFlags(reads, { leaderEpochTruncation: whileOff(bugs, 'KAFKA-1211') })
 */
export function switchFlags<K extends string>(
  reads: SwitchReads,
  flags: Readonly<Record<K, SwitchFlag>>,
): Readonly<Record<K, boolean>> {
  const view = {} as Record<K, boolean>;
  for (const name of Object.keys(flags) as K[]) {
    const { id, value } = flags[name];
    Object.defineProperty(view, name, {
      enumerable: true,
      get: () => {
        reads.read(id);
        return value;
      },
    });
  }
  return view;
}
