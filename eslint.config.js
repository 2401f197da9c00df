/**
 * ESLint flat config. typescript-eslint's recommended rules apply everywhere; on top of them,
 * `sim/` and `faults/` get the determinism bans of style rule 10, each message naming the
 * replacement, in the spirit of TigerBeetle's `src/tidy.zig`. `test/source_rules.test.ts` scans
 * for the same list as a second line of defence, and `test/setup.ts` trips on `Math.random`,
 * `Date.now` and `performance.now` at run time while a simulation runs.
 */
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Code that must be deterministic (style rule 10). Unit tests beside it are exempt. */
const DETERMINISTIC_FILES = ['sim/**/*.ts', 'faults/**/*.ts'];
const TEST_FILES = ['**/*.test.ts'];

const USE_RNG = 'Use ctx.rng (an Rng forked from the root seed) instead (style rule 10)';
const USE_CLOCK = 'Use the kernel clock (ctx.nowUs() or Simulation.nowUs) instead (style rule 10)';
const USE_TIMER = 'Use ctx.setTimer / Simulation.schedule instead (style rule 10)';
const USE_ORDINAL =
  'Compare with `a < b ? -1 : a > b ? 1 : 0` and format with String() instead ' +
  '(style rules 10 and 13)';

const restrictedGlobals = [
  { name: 'Date', message: `Date reads the wall clock. ${USE_CLOCK}` },
  { name: 'performance', message: `performance reads the wall clock. ${USE_CLOCK}` },
  {
    name: 'process',
    message:
      'process (env, hrtime, nextTick, argv) is outside the simulation: pass settings in ' +
      'through SimulationConfig or the scenario (style rule 10)',
  },
  { name: 'setTimeout', message: `setTimeout runs on the wall clock. ${USE_TIMER}` },
  { name: 'setInterval', message: `setInterval runs on the wall clock. ${USE_TIMER}` },
  { name: 'setImmediate', message: `setImmediate runs outside the event loop. ${USE_TIMER}` },
  { name: 'queueMicrotask', message: `queueMicrotask runs outside the event loop. ${USE_TIMER}` },
  { name: 'clearTimeout', message: 'Wall-clock timers are banned. Use ctx.cancelTimer instead' },
  { name: 'clearInterval', message: 'Wall-clock timers are banned. Use ctx.cancelTimer instead' },
  { name: 'clearImmediate', message: 'Wall-clock timers are banned. Use ctx.cancelTimer instead' },
  { name: 'Intl', message: `Intl depends on the host locale. ${USE_ORDINAL}` },
  {
    name: 'WeakRef',
    message: 'WeakRef depends on the garbage collector: hold a plain reference (style rule 10)',
  },
  {
    name: 'FinalizationRegistry',
    message:
      'FinalizationRegistry depends on the garbage collector: release explicitly ' +
      '(style rule 10)',
  },
  { name: 'crypto', message: `Web crypto is entropy. ${USE_RNG}` },
];

const restrictedProperties = [
  { object: 'Math', property: 'random', message: `Math.random is not seeded. ${USE_RNG}` },
  { object: 'globalThis', property: 'Date', message: `Date reads the wall clock. ${USE_CLOCK}` },
  { object: 'globalThis', property: 'setTimeout', message: USE_TIMER },
  { object: 'globalThis', property: 'process', message: 'process is outside the simulation' },
  { property: 'localeCompare', message: `localeCompare is locale-dependent. ${USE_ORDINAL}` },
  ...[
    'toLocaleString',
    'toLocaleDateString',
    'toLocaleTimeString',
    'toLocaleUpperCase',
    'toLocaleLowerCase',
  ].map((property) => ({ property, message: `${property} is locale-dependent. ${USE_ORDINAL}` })),
];

const CRYPTO_RANDOM = ['randomBytes', 'randomUUID', 'randomInt', 'getRandomValues'];
const NO_FILES =
  'The simulation does no file I/O: the runner reads scenarios and writes reports ' +
  '(style rule 10)';
const NO_WALL_TIME = `Wall-clock time and timers are banned. ${USE_CLOCK}`;

const restrictedImports = [
  ...['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({
    name,
    message: NO_FILES,
  })),
  ...['crypto', 'node:crypto'].map((name) => ({
    name,
    importNames: CRYPTO_RANDOM,
    message: `The random parts of crypto are entropy. ${USE_RNG}; createHash is fine`,
  })),
  ...['perf_hooks', 'node:perf_hooks', 'timers', 'node:timers', 'timers/promises'].map((name) => ({
    name,
    message: NO_WALL_TIME,
  })),
  ...['node:timers/promises', 'process', 'node:process'].map((name) => ({
    name,
    message: 'Timers and process state are outside the simulation (style rule 10)',
  })),
];

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    'out/',
    'sweep-out/',
    'dist/',
    'coverage/',
    '.eos-sim/',
    'bench/results.json',
  ]),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.js'],
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
  {
    files: DETERMINISTIC_FILES,
    ignores: TEST_FILES,
    rules: {
      'no-restricted-globals': ['error', ...restrictedGlobals],
      'no-restricted-properties': ['error', ...restrictedProperties],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ForInStatement',
          message:
            'for…in walks inherited and integer-like keys in a surprising order: iterate a ' +
            'Map, or Object.keys() of a plain record (style rules 10 and 13)',
        },
      ],
      'no-restricted-imports': ['error', { paths: restrictedImports }],
    },
  },
  {
    files: ['sim/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
]);
