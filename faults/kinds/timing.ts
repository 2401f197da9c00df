/**
 * Schema keys every fault kind shares: when the fault starts (`at.ms`, from the start of the run
 * or, with `on:`, after its trigger; see `../trigger.ts`) and how long it lasts.
 */
import { integer, positive } from '../../sim/config';
import { triggerSchema } from '../trigger';

/** `at.ms` and the optional trigger it counts from. */
export const instant = { 'at.ms': integer({ min: 0 }), on: triggerSchema.optional() };

/** `at.ms` and a required `for.ms`. */
export const timing = { ...instant, 'for.ms': positive() };

/** `at.ms` and an optional `for.ms`: without it the fault lasts until the heal phase. */
export const openTiming = { ...instant, 'for.ms': positive().optional() };
