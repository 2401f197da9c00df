/**
 * Merging options objects without reading them. Some options are accessor properties that
 * record when the model consults them (a bug switch's flag, see sim/runner/switch_reads.ts); an
 * object spread would call every accessor at once, as if every switch had been consulted.
 */

/**
 * A new object with the own properties of `base`, then those of `extra`, each copied as it is
 * defined (an accessor stays an accessor).
 * @example withProperties(options.replication, { minInsyncReplicas: 1 })
 */
export function withProperties<A extends object, B extends object>(
  base: A,
  extra: B,
): Omit<A, keyof B> & B {
  return Object.defineProperties(
    {},
    { ...Object.getOwnPropertyDescriptors(base), ...Object.getOwnPropertyDescriptors(extra) },
  ) as Omit<A, keyof B> & B;
}
