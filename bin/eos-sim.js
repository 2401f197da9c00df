#!/usr/bin/env node
/**
 * The `eos-sim` launcher (package.json `bin`). It registers tsx's ESM loader so the TypeScript
 * sources run without a build step, imports `cli.ts` and exits with the code `main` returns.
 * Setting `process.exitCode` rather than calling `process.exit` lets piped output drain first.
 */
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli.ts');
process.exitCode = await main(process.argv.slice(2));
