/**
 * Identifier and unit types shared by the kernel and everything above it.
 *
 * Time is always integer microseconds of virtual time; names carry the unit last
 * (`nowUs`, `delayUsMax`). Node ids are branded strings so a node id cannot be mixed up with a
 * client name or a topic by accident.
 */

/** Virtual time in integer microseconds since the start of the run. */
export type TimeUs = number;

/** The name of a simulated process (a broker `b1`, a client `A`). */
export type NodeId = string & { readonly __brand: 'NodeId' };

/** Brands a string as a {@link NodeId}. @example nodeId('b1') */
export function nodeId(name: string): NodeId {
  return name as NodeId;
}

/** Microseconds in one millisecond: scenario files speak milliseconds, the kernel microseconds. */
export const US_PER_MS = 1000;

/** A probability as an exact ratio, so no floating point feeds the schedule. */
export interface Ratio {
  readonly numerator: number;
  readonly denominator: number;
}

/** Builds a {@link Ratio}. @example ratio(1, 4) is a 25% chance */
export function ratio(numerator: number, denominator: number): Ratio {
  return { numerator, denominator };
}
