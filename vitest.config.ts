/**
 * Vitest settings. Every `*.test.ts` in the tree runs: unit tests beside the code and the
 * cross-module suites in `test/`. `test/setup.ts` installs the determinism tripwire and reads
 * `SIM_SEEDS`. Forked workers keep one test file's global patches away from another's, and the
 * long timeout leaves room for seed sweeps (style rule 35).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', 'out/**', 'sweep-out/**', '.eos-sim/**'],
    setupFiles: ['test/setup.ts'],
    pool: 'forks',
    testTimeout: 600_000,
  },
});
