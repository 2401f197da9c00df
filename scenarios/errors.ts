/**
 * Typed input errors of the scenario loader. Each carries a stable `code` the CLI maps to exit
 * code 64, and a location (file, 1-based line, dotted key) so a user can jump straight to the
 * mistake. Messages follow the house rules: capital first, no trailing period, no contractions,
 * a colon before details (style rule 33).
 */

/** Where in a scenario file an error was found, and what is wrong there. */
export interface ScenarioErrorLocation {
  /** The file, as the caller named it. */
  readonly file: string;
  /** 1-based line of the offending key or list item; undefined when no line applies. */
  readonly line: number | undefined;
  /** Dotted path of the offending key (`clients[0].config.acks`); undefined for the file. */
  readonly key: string | undefined;
  /** What is wrong, lower case first (`must be one of 0, 1, -1, all`). */
  readonly detail: string;
}

/**
 * A scenario file that cannot be used: broken YAML, an unknown key, a wrong type, a value out of
 * range or a rule across keys that does not hold.
 *
 * @example
 * ```ts
 * throw new ScenarioInvalidError({
 *   file: 'scenarios/x.yaml', line: 12, key: 'clients[0].config.acks',
 *   detail: 'must be one of 0, 1, -1, all',
 * });
 * // Invalid scenario scenarios/x.yaml:12: clients[0].config.acks: must be one of 0, 1, -1, all
 * ```
 */
export class ScenarioInvalidError extends Error {
  /** Stable code for programs and exit-code mapping. */
  readonly code = 'SIM_SCENARIO_INVALID';
  /** The file, as the caller named it. */
  readonly file: string;
  /** 1-based line, or undefined when the error is not tied to a line. */
  readonly line: number | undefined;
  /** Dotted key path, or undefined when the error concerns the whole file. */
  readonly key: string | undefined;

  constructor(location: ScenarioErrorLocation) {
    const place = location.line === undefined ? location.file : `${location.file}:${location.line}`;
    const key = location.key === undefined ? '' : `${location.key}: `;
    super(`Invalid scenario ${place}: ${key}${location.detail}`);
    this.name = 'ScenarioInvalidError';
    this.file = location.file;
    this.line = location.line;
    this.key = location.key;
  }
}

/**
 * A scenario path that does not exist.
 *
 * @example
 * ```ts
 * throw new ScenarioNotFoundError('scenarios/missing.yaml');
 * // Scenario file not found: scenarios/missing.yaml
 * ```
 */
export class ScenarioNotFoundError extends Error {
  /** Stable code for programs and exit-code mapping. */
  readonly code = 'SIM_SCENARIO_NOT_FOUND';
  /** The path, as the caller named it. */
  readonly file: string;
  /** Always undefined: a missing file has no lines. Present so both errors share a shape. */
  readonly line: undefined = undefined;
  /** Always undefined. Present so both errors share a shape. */
  readonly key: undefined = undefined;

  constructor(file: string) {
    super(`Scenario file not found: ${file}`);
    this.name = 'ScenarioNotFoundError';
    this.file = file;
  }
}
