/**
 * Goal: pin that malformed scenario files are refused with one line, never an unexpected error:
 * a seeded generator derives 300 files from a bundled scenario (each one of: a number replaced
 * by 2^53 - 1, -1, 1e400, a string or a float; a hostile name; the text truncated at a random
 * byte; a fault moved after the end of the run) and loads each in-process. Mutations that must
 * be invalid (huge numbers, hostile names, outside-the-run faults) must be refused; every
 * refusal is a ScenarioInvalidError of one line, in well under a second. Method: seedrandom
 * with a fixed seed, `parseScenario`.
 */
import { readFileSync } from 'node:fs';
import seedrandom from 'seedrandom';
import { describe, expect, it } from 'vitest';
import { ScenarioInvalidError, parseScenario } from './index';

const SOURCE = readFileSync('scenarios/zombie-fencing.yaml', 'utf8');
const NUMBER = /(?<=: )\d+$/gm;

/** One mutated file and whether it must be refused. */
interface Mutant {
  readonly text: string;
  readonly invalid: boolean;
  readonly what: string;
}

/** The `count`-th mutant drawn from `random`. */
function mutant(random: () => number): Mutant {
  const numbers = [...SOURCE.matchAll(NUMBER)];
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const kind = Math.floor(random() * 4);
  if (kind === 0) {
    const match = pick(numbers);
    const value = pick(['9007199254740991', '-1', '1e400', '"ten"', '0.5']);
    const at = match.index ?? 0;
    const text = SOURCE.slice(0, at) + value + SOURCE.slice(at + match[0].length);
    return { text, invalid: value !== '0.5', what: `number at ${at} -> ${value}` };
  }
  if (kind === 1) {
    const hostile = pick(['"a\\nb"', '"\\e[31m"', '"\\0"', '"\\u202e"', '"\\e]0;t\\a"']);
    return {
      text: SOURCE.replace('name: zombie-fencing', `name: ${hostile}`),
      invalid: true,
      what: `name ${hostile}`,
    };
  }
  if (kind === 2) {
    const at = Math.floor(random() * SOURCE.length);
    return { text: SOURCE.slice(0, at), invalid: false, what: `truncated at ${at}` };
  }
  const atMs = 40000 + Math.floor(random() * 1e9);
  return {
    text: SOURCE.replace('at.ms: 1500', `at.ms: ${atMs}`),
    invalid: true,
    what: `fault at ${atMs}`,
  };
}

describe('malformed corpus', () => {
  it('300 seeded mutants: refused with one line, or valid; never another error', () => {
    const random = seedrandom('malformed-corpus-1');
    let refused = 0;
    for (let index = 0; index < 300; index++) {
      const { text, invalid, what } = mutant(random);
      const started = performance.now();
      let error: unknown;
      try {
        parseScenario(text, 'corpus.yaml');
      } catch (caught) {
        error = caught;
      }
      expect(performance.now() - started, what).toBeLessThan(2000);
      if (error === undefined) {
        expect(invalid, `${what} was accepted`).toBe(false);
        continue;
      }
      refused++;
      expect(error, what).toBeInstanceOf(ScenarioInvalidError);
      expect((error as Error).message, what).not.toMatch(/\n/);
    }
    expect(refused).toBeGreaterThan(200);
  });
});
