#!/usr/bin/env node
/**
 * The `eos-sim` launcher (package.json `bin`, and `npm start`). It registers tsx's ESM loader so
 * the TypeScript sources run without a build step, watches the npm wrapper when npm started it
 * (`npx eos-sim`, `npm start`: killing npm must stop this process too, see cli/wrapper_watch.ts),
 * imports `cli.ts` and exits with the code `main` returns. Setting `process.exitCode` rather than
 * calling `process.exit` lets piped output drain first.
 */
import { register } from 'tsx/esm/api';

register();
const { stopWhenWrapperDies } = await import('../cli/wrapper_watch.ts');
stopWhenWrapperDies();
const { main } = await import('../cli.ts');
process.exitCode = await main(process.argv.slice(2));
