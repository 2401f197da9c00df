/**
 * Vitest settings: two tiers of the same tree, as two projects.
 * - `fast` (`npm test`): every `*.test.ts` except the sweeps: the unit tests beside the code,
 *   the cross-module suites in `test/` at one or a few seeds, and every bundled scenario once
 *   under `--check-determinism` against its pinned event hash.
 * - `sweeps` (`npm run test:sweeps`): the `*.sweep.test.ts` files, the tests that run many seeds
 *   (seed sweeps, detection rates, shrinking) and the remaining golden seeds.
 * `test/setup.ts` installs the determinism tripwire (idempotent) and reads `SIM_SEEDS`. The fast
 * tier reuses each forked worker across files (`isolate: false`): importing the model once per
 * worker instead of once per file saves about a third of its CPU; its files restore what they
 * patch (`vi.restoreAllMocks`, `vi.unstubAllEnvs`). The sweeps keep one fresh worker per file,
 * and the long timeout leaves room for seed sweeps (style rule 35).
 */
import { defineConfig } from 'vitest/config';

const SWEEP_FILES = '**/*.sweep.test.ts';

export default defineConfig({
  test: {
    exclude: ['**/node_modules/**', 'out/**', 'sweep-out/**', '.eos-sim/**'],
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    testTimeout: 600_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          isolate: false,
          include: ['**/*.test.ts'],
          exclude: ['**/node_modules/**', 'out/**', 'sweep-out/**', '.eos-sim/**', SWEEP_FILES],
        },
      },
      { extends: true, test: { name: 'sweeps', include: [SWEEP_FILES] } },
    ],
  },
});
