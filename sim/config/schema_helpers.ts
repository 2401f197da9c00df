/**
 * The building blocks of the scenario schema: strict mappings that list their known keys,
 * integers with one message for every way they can be wrong, and lists. Messages are the detail
 * after the key, lower case first (`must be an integer >= 1`); a missing key says `is required`.
 */
import { z } from 'zod';
import { LIMITS } from './limits';

/** The error-map parameter zod accepts on a schema or a check. */
export interface ErrorParam {
  readonly error: (issue: { readonly code?: string; readonly input?: unknown }) => string;
}

/** A message for a value that is wrong, or `is required` when the key is missing. */
export function message(text: string): ErrorParam {
  return { error: (issue) => (issue.input === undefined ? 'is required' : text) };
}

/** A strict mapping whose unknown-key issue lists the known keys. */
export function section<Shape extends z.core.$ZodLooseShape>(shape: Shape) {
  const known = `known keys are ${Object.keys(shape).join(', ')}`;
  return z.strictObject(shape, {
    error: (issue) => {
      if (issue.code === 'unrecognized_keys') return known;
      return issue.input === undefined ? 'is required' : 'must be a mapping';
    },
  });
}

/** An integer in `[min, max]`, with one message for every way it can be wrong. */
export function integer(options: {
  readonly min: number;
  readonly max?: number;
  readonly text?: string;
}) {
  const text =
    options.text ??
    (options.max === undefined
      ? `must be an integer >= ${options.min}`
      : `must be an integer from ${options.min} to ${options.max}`);
  const schema = z.int(message(text)).min(options.min, message(text));
  return options.max === undefined ? schema : schema.max(options.max, message(text));
}

/** An integer that must be greater than zero. */
export function positive() {
  return integer({ min: 1, text: 'must be an integer > 0' });
}

/** An integer number of milliseconds from `min` to a Java int (Kafka's `INT` configs). */
export function ms(min: 0 | 1) {
  return integer({ min, max: LIMITS.ms });
}

/**
 * Characters a name must not hold: C0 and C1 controls (NUL, ESC, newline), DEL, the Unicode
 * line and paragraph separators and the bidirectional overrides, so no name can forge a line or
 * recolour a terminal when it is printed.
 */
const UNPRINTABLE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/** A non-empty string of printable characters, at most {@link LIMITS.nameLength} long. */
export function text() {
  const unprintable = 'must not contain control characters (newline, NUL, ESC and the like)';
  return z
    .string(message('must be a string'))
    .min(1, message('must not be empty'))
    .max(LIMITS.nameLength, message(`must be at most ${LIMITS.nameLength} characters`))
    .refine((value) => !UNPRINTABLE.test(value), message(unprintable));
}

/** A boolean. */
export function boolean() {
  return z.boolean(message('must be true or false'));
}

/** One of a fixed list of values, listed in the message. */
export function oneOf<const Values extends readonly [string | number, ...(string | number)[]]>(
  values: Values,
) {
  return z.literal(values, message(`must be one of ${values.join(', ')}`));
}

/** A list of items, empty or not, of at most `max` items. */
export function list<Item extends z.ZodType>(
  item: Item,
  options: { readonly empty: boolean; readonly max?: number },
) {
  const max = options.max ?? LIMITS.listOrCount;
  const schema = z
    .array(item, message('must be a list'))
    .max(max, message(`must have at most ${max} items`));
  return options.empty ? schema : schema.min(1, message('must not be empty'));
}
