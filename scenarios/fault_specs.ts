/**
 * The resolved faults and random nemesis of a scenario: what the loader produces from `faults:`
 * and `nemesis:` and the runner hands to the nemesis in `faults/`. The shapes are the fault
 * kinds' own (`faults/kinds/`); the loader adds the 1-based `line` of a fault's list item when it
 * came from a file.
 */
import type { LinkFault, RandomFaultKind, RandomNemesisSpec, ScriptedFault } from '../faults';

/** An exact probability. */
export type RatioSpec = LinkFault['probability'];

/** A scripted fault (`faults:`), with the line of its list item. */
export type FaultSpec = ScriptedFault & { readonly line?: number };

/** The kinds a random nemesis draws from (`nemesis.kinds`). */
export type RandomFaultKindSpec = RandomFaultKind;

/** A random nemesis (`nemesis:`): faults drawn from the seed. Times in milliseconds. */
export type RandomNemesisConfig = RandomNemesisSpec;
