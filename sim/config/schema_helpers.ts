/**
 * The building blocks of the scenario schema: strict mappings that list their known keys,
 * integers with one message for every way they can be wrong, and lists. Messages are the detail
 * after the key, lower case first (`must be an integer >= 1`); a missing key says `is required`.
 */
import { z } from 'zod';

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

/** A non-empty string. */
export function text() {
  return z.string(message('must be a string')).min(1, message('must not be empty'));
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

/** A list of items, empty or not. */
export function list<Item extends z.ZodType>(item: Item, options: { readonly empty: boolean }) {
  const schema = z.array(item, message('must be a list'));
  return options.empty ? schema : schema.min(1, message('must not be empty'));
}
