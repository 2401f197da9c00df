/**
 * Where the bundled scenario files are: `scenarios/` beside `cli.ts`, found from this file's
 * location rather than the working directory, and shown relative to the working directory so
 * reproduce commands stay short and paste-ready.
 */
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bundled scenarios folder, relative to the working directory when that is shorter.
 * @example bundledScenarioDir() // 'scenarios' when run from the package root
 */
export function bundledScenarioDir(): string {
  const absolute = fileURLToPath(new URL('../scenarios', import.meta.url));
  const shown = relative(process.cwd(), absolute);
  return shown === '' ? '.' : shown.length < absolute.length ? shown : absolute;
}
