/**
 * The entry point of a sweep worker thread. Worker threads do not inherit tsx's loader from the
 * main thread on Node 20 (neither from `tsx cli.ts` nor from `bin/eos-sim.js`), so this plain
 * ES module registers it before importing the TypeScript worker, and hands the pool the
 * worker's task function. It runs once per worker thread, not once per seed.
 */
import { register } from 'tsx/esm/api';

register();
const worker = await import('./sweep_worker.ts');

export default worker.default;
