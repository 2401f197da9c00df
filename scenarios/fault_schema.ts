/**
 * The schema of `faults:` (scripted faults) and `nemesis:` (random faults) in a scenario file.
 * Every fault has a `kind`; the other keys depend on it and come from the kind's own module in
 * `faults/kinds/` (the registry), and each mapping rejects keys it does not know. Node names are
 * checked against the scenario by the cross-key rules (`nemesis_rules.ts`, which ask each kind),
 * which resolve nothing: references such as `leader:orders-0` are resolved when the fault
 * starts. Fault kinds and their fault models: docs/scenarios.md.
 */
import { z } from 'zod';
import { FAULT_ENTRY_KINDS, RANDOM_FAULT_KINDS, faultEntrySchemas, probability } from '../faults';
import { boolean, integer, list, oneOf, positive, section, text } from '../sim/config';

export { probability };

/** A parsed `faults:` entry: its kind's own shape (see the kind's module). */
export interface FaultEntry {
  readonly kind: string;
}

/** Every scripted fault kind, in the order the docs list them. */
export const FAULT_KINDS = FAULT_ENTRY_KINDS;

const [firstSchema, ...otherSchemas] = faultEntrySchemas();
if (firstSchema === undefined) throw new Error('no fault kind is registered');

/** The schema of one entry of `faults:`. */
export const faultSchema = z.discriminatedUnion('kind', [firstSchema, ...otherSchemas], {
  error: (issue) => {
    const input = issue.input;
    if (typeof input !== 'object' || input === null) return 'must be a mapping';
    return 'kind' in input ? `must be one of ${FAULT_KINDS.join(', ')}` : 'is required';
  },
}) as unknown as z.ZodType<FaultEntry>;

/** The kinds `nemesis.kinds` accepts. */
export const NEMESIS_KINDS = RANDOM_FAULT_KINDS;

const [firstKind, ...otherKinds] = NEMESIS_KINDS;
if (firstKind === undefined) throw new Error('no random fault kind is registered');

/** The schema of `nemesis:`. */
export const nemesisSchema = section({
  kinds: list(oneOf([firstKind, ...otherKinds]), { empty: false }),
  targets: list(text(), { empty: false }).optional(),
  'start.ms': integer({ min: 0 }).default(0),
  'stop.ms': positive().optional(),
  'interval.ms': positive(),
  'duration.ms.min': positive(),
  'duration.ms.max': positive(),
  'timeout.aware': boolean().default(false),
  probability: probability.default(0.1),
});
