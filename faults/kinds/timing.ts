/** Schema keys most fault kinds share: when the fault starts and how long it lasts. */
import { integer, positive } from '../../sim/config';

/** `at.ms` and a required `for.ms`. */
export const timing = { 'at.ms': integer({ min: 0 }), 'for.ms': positive() };

/** `at.ms` and an optional `for.ms`: without it the fault lasts until the heal phase. */
export const openTiming = { 'at.ms': integer({ min: 0 }), 'for.ms': positive().optional() };

/** `at.ms` alone: the fault acts once. */
export const instant = { 'at.ms': integer({ min: 0 }) };
