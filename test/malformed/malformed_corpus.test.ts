/**
 * Goal: pin that malformed scenario files are refused with one line, never an unexpected error
 * (the fast-tier slice of the corpus; malformed_corpus.sweep.test.ts runs 1,000 through the CLI).
 * The seeded generator of ./mutants.ts derives files from bundled scenarios: numbers replaced by
 * huge, negative, overflowing or ill-typed values; hostile names and bytes; truncations; broken
 * and hostile YAML; settings Kafka refuses; work scheduled outside the run. Each is loaded from
 * disk in-process: a mutant that must be invalid must be refused, and every refusal is a
 * ScenarioInvalidError of one line, in well under a second.
 *
 * Method: `malformedCorpus(count, seed)` with a fixed seed, written to a scratch directory,
 * `loadScenario` on each.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScenarioInvalidError, loadScenario } from '../../scenarios';
import { scratchDir } from '../cli/cli_helpers';
import { malformedCorpus } from './mutants';

const COUNT = 200;
const scratch = scratchDir();
afterAll(() => scratch.remove());

describe('malformed corpus (fast slice)', () => {
  it(`${COUNT} seeded mutants: refused with one line, or valid; never another error`, () => {
    let refused = 0;
    malformedCorpus(COUNT, 'malformed-corpus-1').forEach(({ bytes, invalid, what }, index) => {
      const path = join(scratch.path, `m${index}.yaml`);
      writeFileSync(path, bytes);
      const started = performance.now();
      let error: unknown;
      try {
        loadScenario(path);
      } catch (caught) {
        error = caught;
      }
      expect(performance.now() - started, what).toBeLessThan(1000);
      if (error === undefined) {
        expect(invalid, `${what} was accepted`).toBe(false);
        return;
      }
      refused++;
      expect(error, what).toBeInstanceOf(ScenarioInvalidError);
      expect((error as Error).message, what).not.toMatch(/\n/);
    });
    expect(refused).toBeGreaterThan(COUNT / 2);
  });
});
