/**
 * Schema pieces for keys that moved: a renamed key is refused with a message naming its new
 * key, and a strict mapping with such keys lists only the live ones as known.
 */
import { z } from 'zod';

/** A key that was renamed: any value is refused with a message naming the new key. */
export function renamedKey(replacement: string) {
  return z
    .any()
    .refine(() => false, { message: `was renamed: use ${replacement}` })
    .optional();
}

/** The error of a strict mapping whose renamed keys are not listed as known. */
export function strictError(known: string) {
  return (issue: { readonly code?: string; readonly input?: unknown }): string => {
    if (issue.code === 'unrecognized_keys') return `known keys are ${known}`;
    return issue.input === undefined ? 'is required' : 'must be a mapping';
  };
}
