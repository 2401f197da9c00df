/**
 * Goal: enforce the style rules a reviewer should never have to check by eye: import direction
 * and entry modules (rules 2, 3 and 4), the determinism ban list in `sim/` and `faults/` (rule
 * 10, a second line of defence beside ESLint), size limits (rule 37) and snake_case file names
 * (rule 30).
 *
 * Method: read every `.ts` file of the tree and parse it with the TypeScript compiler API, so
 * imports, comments, string literals and function extents are exact rather than guessed by
 * regular expressions. Each rule collects every violation in the tree and fails once with the
 * full list. The detectors are first run on small inline fixtures, so a detector that silently
 * stopped finding anything fails too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'out', 'sweep-out', 'dist', 'coverage']);

/** A source file: its repository-relative POSIX path and its text. */
interface SourceFile {
  readonly path: string;
  readonly text: string;
}

// ---------------------------------------------------------------------------------------------
// Rules 2, 3 and 4: import direction, entry modules, dependency homes.

const ZONES = [
  ...(['sim/kernel', 'sim/actors', 'sim/history', 'sim/checker', 'sim/workload'] as const),
  'sim/config',
  ...(['sim/runner', 'faults', 'scenarios', 'reports', 'cli', 'bench', 'test'] as const),
] as const;
type Zone = (typeof ZONES)[number];

interface ZoneRule {
  /** Other zones this zone may import from; every zone may import from itself. */
  readonly targets: readonly Zone[] | 'any';
  /** Targets that may only be imported with `import type` / `export type`. */
  readonly typeOnlyTargets?: readonly Zone[];
  /** npm packages and Node built-ins allowed; rule 4's homes apply on top. */
  readonly packages: readonly string[] | 'any';
}

const SIM_ZONES: readonly Zone[] = ZONES.filter((zone) => zone.startsWith('sim/'));

const ZONE_RULES: Readonly<Record<Zone, ZoneRule>> = {
  'sim/kernel': { targets: [], packages: ['seedrandom'] },
  'sim/actors': { targets: ['sim/kernel'], packages: 'any' },
  'sim/history': { targets: [], packages: 'any' },
  'sim/checker': { targets: ['sim/history'], packages: 'any' },
  'sim/workload': {
    targets: ['sim/actors', 'sim/kernel', 'sim/history', 'sim/config'],
    packages: 'any',
  },
  // The leaf of the scenario language (schema building blocks, resolved client types): it may
  // name the model's own config types but imports no code, so every zone may import it.
  'sim/config': {
    targets: ['sim/actors', 'sim/kernel'],
    typeOnlyTargets: ['sim/actors', 'sim/kernel'],
    packages: ['zod'],
  },
  // Each fault kind's module holds its schema (built from the leaf), so the loader imports the
  // registry; faults reach sim/actors only for the leaf list of Kafka message kinds.
  faults: { targets: ['sim/kernel', 'sim/history', 'sim/config', 'sim/actors'], packages: 'any' },
  scenarios: { targets: ['sim/actors', 'sim/checker', 'sim/config', 'faults'], packages: 'any' },
  'sim/runner': { targets: ['scenarios', ...SIM_ZONES, 'faults'], packages: 'any' },
  reports: {
    targets: ['sim/runner', 'sim/checker', 'sim/history', 'scenarios'],
    typeOnlyTargets: ['sim/runner'],
    packages: 'any',
  },
  cli: { targets: 'any', packages: 'any' },
  bench: { targets: 'any', packages: 'any' },
  test: { targets: 'any', packages: 'any' },
};

/** Leaf constant files another zone may import directly instead of the entry module. */
const ENTRY_EXCEPTIONS: Readonly<Partial<Record<Zone, readonly string[]>>> = {
  scenarios: ['sim/actors/protocol/message_kinds.ts', 'sim/checker/anomaly_types.ts'],
  faults: ['sim/actors/protocol/message_kinds.ts'],
};

/** Rule 4: each dependency has one home. `.test.ts` files are exempt. */
const DEPENDENCY_HOMES: ReadonlyArray<{ readonly name: string; readonly home: RegExp }> = [
  { name: 'seedrandom', home: /^sim\/kernel\/rng\.ts$/ },
  { name: 'commander', home: /^cli\.ts$/ },
  { name: 'chalk', home: /^reports\/console\.ts$/ },
  { name: 'vitest', home: /^(test\/.*|vitest\.config\.ts)$/ },
];

/** Root files that any zone outside `sim/` and `faults/` may import (the package version). */
const SHARED_ROOT_FILES = new Set(['package.json']);

interface ImportRecord {
  readonly specifier: string;
  readonly line: number;
  readonly typeOnly: boolean;
}

function zoneOf(file: string): Zone | undefined {
  if (file === 'cli.ts') return 'cli';
  const [first, second] = file.split('/');
  const name = first === 'sim' ? `sim/${second ?? ''}` : first;
  return (ZONES as readonly string[]).includes(name ?? '') ? (name as Zone) : undefined;
}

function isTestFile(file: string): boolean {
  return file.endsWith('.test.ts');
}

const parsed = new WeakMap<SourceFile, ts.SourceFile>();

/** Parses `file` once; every rule reads the same syntax tree. */
function parse(file: SourceFile): ts.SourceFile {
  let source = parsed.get(file);
  if (source === undefined) {
    source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
    parsed.set(file, source);
  }
  return source;
}

function lineOf(source: ts.SourceFile, position: number): number {
  return source.getLineAndCharacterOfPosition(position).line + 1;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  if (clause.name !== undefined || bindings === undefined || !ts.isNamedImports(bindings)) {
    return false;
  }
  return bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function isTypeOnlyExport(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  if (clause === undefined || !ts.isNamedExports(clause)) return false;
  return clause.elements.length > 0 && clause.elements.every((element) => element.isTypeOnly);
}

/** Every module specifier in `file`: static, re-export, dynamic, `require` and `import()` type. */
function importsOf(file: SourceFile): ImportRecord[] {
  const source = parse(file);
  const records: ImportRecord[] = [];
  const add = (literal: ts.Node, typeOnly: boolean): void => {
    if (!ts.isStringLiteralLike(literal)) return;
    records.push({ specifier: literal.text, line: lineOf(source, literal.getStart()), typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined) {
      add(node.moduleSpecifier, isTypeOnlyExport(node));
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    ) {
      add(node.moduleReference.expression, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments[0] !== undefined) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (callee.kind === ts.SyntaxKind.ImportKeyword || isRequire) add(node.arguments[0], false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return records;
}

/** Resolves a relative specifier to a repository path, preferring files that exist. */
function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = base.replace(/\.(js|ts)$/, '');
  const candidates = [`${stem}.ts`, `${stem}/index.ts`, base];
  return candidates.find((candidate) => known.has(candidate)) ?? base;
}

function isEntryModule(target: string, zone: Zone): boolean {
  return [zone, `${zone}/index`, `${zone}/index.ts`].includes(target);
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? specifier);
}

/** Checks one package import against the zone's list and rule 4's homes. */
function packageViolation(file: string, zone: Zone, specifier: string): string | undefined {
  const name = packageName(specifier);
  const home = DEPENDENCY_HOMES.find((dependency) => dependency.name === name);
  if (home !== undefined && !home.home.test(file)) {
    return `'${name}' may only be imported by its home ${home.home.source} (rule 4)`;
  }
  const allowed = ZONE_RULES[zone].packages;
  if (allowed !== 'any' && !allowed.includes(name)) {
    return `${zone} may not import the package '${name}' (rule 2)`;
  }
  return undefined;
}

/** Checks one relative import: direction (rule 2), type-only targets, entry module (rule 3). */
function relativeViolation(options: {
  zone: Zone;
  target: string;
  typeOnly: boolean;
}): string | undefined {
  const { zone, target, typeOnly } = options;
  const targetZone = zoneOf(target);
  const rule = ZONE_RULES[zone];
  if (targetZone === undefined) {
    if (SHARED_ROOT_FILES.has(target) && !SIM_ZONES.includes(zone) && zone !== 'faults') {
      return undefined;
    }
    return `${zone} imports '${target}', which is outside every known folder (rule 2)`;
  }
  if (targetZone === zone) return undefined;
  if (rule.targets !== 'any' && !rule.targets.includes(targetZone)) {
    return `${zone} must not import ${targetZone} ('${target}') (rule 2)`;
  }
  if (rule.typeOnlyTargets?.includes(targetZone) === true && !typeOnly) {
    return `${zone} may import only types from ${targetZone}: use 'import type' (rule 2)`;
  }
  if (isEntryModule(target, targetZone)) return undefined;
  const stem = target.replace(/\.ts$/, '');
  if (ENTRY_EXCEPTIONS[zone]?.some((leaf) => leaf === `${stem}.ts`) === true) return undefined;
  return `import ${targetZone} through '${targetZone}/index.ts', not '${target}' (rule 3)`;
}

function importViolations(files: readonly SourceFile[], known: ReadonlySet<string>): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const zone = zoneOf(file.path);
    if (file.path.startsWith('sim/') && zone === undefined) {
      violations.push(`${file.path}: sim/ folder not in the import-direction table (rule 2)`);
      continue;
    }
    if (zone === undefined || isTestFile(file.path)) continue;
    for (const record of importsOf(file)) {
      const relative = record.specifier.startsWith('.');
      const problem = relative
        ? relativeViolation({
            zone,
            target: resolveRelative(file.path, record.specifier, known),
            typeOnly: record.typeOnly,
          })
        : packageViolation(file.path, zone, record.specifier);
      if (problem !== undefined) violations.push(`${file.path}:${record.line}: ${problem}`);
    }
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------
// Rule 10: the determinism ban list, scanned in code with comments and literals blanked out.

const BANNED_PATTERNS: ReadonlyArray<{ readonly pattern: RegExp; readonly message: string }> = [
  { pattern: /\bMath\s*\.\s*random\b/, message: 'Math.random: use ctx.rng (Rng)' },
  { pattern: /(?<![\w$.])Date\b/, message: 'Date: use the kernel clock (ctx.nowUs())' },
  {
    pattern: /(?<![\w$.])performance\s*\./,
    message: 'performance: use the kernel clock (ctx.nowUs())',
  },
  {
    pattern: /(?<![\w$.])process\s*\.\s*(env|hrtime|nextTick|argv|exit|memoryUsage|uptime)\b/,
    message: 'process: pass settings in through the config or scenario',
  },
  {
    pattern: /(?<![\w$])(setTimeout|setInterval|setImmediate|queueMicrotask)\b/,
    message: 'wall-clock timer: use ctx.setTimer',
  },
  { pattern: /(?<![\w$.])Intl\b/, message: 'Intl: locale-dependent, compare ordinally' },
  { pattern: /(?<![\w$.])(WeakRef|FinalizationRegistry)\b/, message: 'GC-dependent API' },
  { pattern: /\blocaleCompare\b/, message: 'localeCompare: compare with < and >' },
  { pattern: /\btoLocale\w*/, message: 'toLocale*: format with String()' },
  {
    pattern: /\bfor\s*\(\s*(const|let|var)\s+[^;)]*?\s+in\s/,
    message: 'for…in: iterate a Map or Object.keys()',
  },
  {
    pattern: /\b(randomBytes|randomUUID|randomInt|getRandomValues)\b/,
    message: 'random crypto: use ctx.rng (Rng)',
  },
];

const BANNED_MODULES = new Set(
  ['fs', 'fs/promises', 'perf_hooks', 'timers', 'timers/promises'].flatMap((name) => [
    name,
    `node:${name}`,
  ]),
);

function isCommentOrLiteral(node: ts.Node): boolean {
  return (
    (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) ||
    ts.isStringLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateLiteralToken(node) ||
    ts.isRegularExpressionLiteral(node)
  );
}

/**
 * The file's text with only code tokens kept: comments, whitespace, string, template and
 * regular-expression literal text become spaces, and line breaks stay, so line numbers hold.
 */
function codeOnly(file: SourceFile): string {
  const source = parse(file);
  const kept = file.text.replace(/[^\n]/g, ' ').split('');
  const visit = (node: ts.Node): void => {
    if (isCommentOrLiteral(node)) return;
    const children = node.getChildren(source);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    for (let i = node.getStart(source); i < node.getEnd(); i++) kept[i] = file.text[i] as string;
  };
  visit(source);
  return kept.join('');
}

function isDeterministic(file: string): boolean {
  return (file.startsWith('sim/') || file.startsWith('faults/')) && !isTestFile(file);
}

function bannedApiViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files.filter((candidate) => isDeterministic(candidate.path))) {
    codeOnly(file)
      .split('\n')
      .forEach((line, index) => {
        for (const { pattern, message } of BANNED_PATTERNS) {
          if (pattern.test(line)) violations.push(`${file.path}:${index + 1}: ${message}`);
        }
      });
    for (const record of importsOf(file)) {
      if (BANNED_MODULES.has(record.specifier)) {
        const message = `'${record.specifier}' (no file I/O or wall-clock time in the simulation)`;
        violations.push(`${file.path}:${record.line}: ${message}`);
      }
    }
  }
  return violations;
}

// ---------------------------------------------------------------------------------------------
// Rule 37: sizes. Rule 30: snake_case file names.

const FILE_LINES_LIMIT = 600;
const LINE_COLUMNS_MAX = 100;
const FUNCTION_LINES_MAX = 70;

function functionName(node: ts.SignatureDeclaration): string {
  if (node.name !== undefined) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) {
    return parent.name.getText();
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '<anonymous>';
}

/** Vitest's `describe` callbacks are structure, not logic: their length is not a function's. */
function isSuiteCallback(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    parent !== undefined &&
    ts.isCallExpression(parent) &&
    /^(describe|suite)\b/.test(parent.expression.getText())
  );
}

function functionLengthViolations(file: SourceFile): string[] {
  const source = parse(file);
  const violations: string[] = [];
  const visit = (node: ts.Node): void => {
    const measured =
      (ts.isFunctionDeclaration(node) ||
        ts.isMethodDeclaration(node) ||
        ts.isArrowFunction(node) ||
        ts.isFunctionExpression(node) ||
        ts.isConstructorDeclaration(node) ||
        ts.isGetAccessorDeclaration(node) ||
        ts.isSetAccessorDeclaration(node)) &&
      node.body !== undefined &&
      !isSuiteCallback(node);
    if (measured) {
      const first = lineOf(source, node.getStart(source));
      const lines = lineOf(source, node.getEnd()) - first + 1;
      if (lines > FUNCTION_LINES_MAX) {
        const name = functionName(node);
        violations.push(
          `${file.path}:${first}: function ${name} has ${lines} lines ` +
            `(at most ${FUNCTION_LINES_MAX})`,
        );
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return violations;
}

function sizeViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const lines = file.text.split('\n');
    if (lines.at(-1) === '') lines.pop();
    if (lines.length >= FILE_LINES_LIMIT) {
      violations.push(`${file.path}: ${lines.length} lines (must stay under ${FILE_LINES_LIMIT})`);
    }
    lines.forEach((line, index) => {
      const columns = [...line.replace(/\r$/, '')].length;
      if (columns > LINE_COLUMNS_MAX && !/\bhttps?:\/\//.test(line)) {
        violations.push(`${file.path}:${index + 1}: ${columns} columns (at most 100)`);
      }
    });
    violations.push(...functionLengthViolations(file));
  }
  return violations;
}

const SNAKE_CASE_FOLDERS = ['sim/', 'faults/', 'scenarios/', 'reports/'];

function fileNameViolations(files: readonly SourceFile[]): string[] {
  return files
    .filter((file) => SNAKE_CASE_FOLDERS.some((folder) => file.path.startsWith(folder)))
    .filter((file) => !/^[a-z0-9_]+(\.test)?\.ts$/.test(path.posix.basename(file.path)))
    .map((file) => `${file.path}: file names are snake_case, e.g. event_queue.ts (rule 30)`);
}

// ---------------------------------------------------------------------------------------------
// The tree, and the tests.

function listTypeScriptFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, directory), { withFileTypes: true })) {
    const relative = directory === '' ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !SKIPPED_DIRECTORIES.has(entry.name)) {
        found.push(...listTypeScriptFiles(relative));
      }
    } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      found.push(relative);
    }
  }
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function readTree(): SourceFile[] {
  return listTypeScriptFiles('').map((file) => ({
    path: file,
    text: readFileSync(path.join(ROOT, file), 'utf8'),
  }));
}

function assertNone(rule: string, violations: readonly string[]): void {
  if (violations.length === 0) return;
  throw new Error(`${violations.length} violation(s) of ${rule}:\n  ${violations.join('\n  ')}`);
}

function fixture(file: string, text: string): SourceFile {
  return { path: file, text };
}

describe('source rules detectors (fixtures)', () => {
  const known = new Set(['sim/kernel/index.ts', 'sim/kernel/rng.ts', 'sim/runner/index.ts']);

  it('flags wrong import directions, internal targets and misplaced packages', () => {
    const files = [
      fixture('sim/kernel/a.ts', "import { X } from '../actors';\nimport 'node:fs';"),
      fixture('sim/actors/b.ts', "import { Rng } from '../kernel/rng';"),
      fixture('sim/actors/c.ts', "import { Rng } from '../kernel';"),
      fixture('reports/d.ts', "import { run } from '../sim/runner';"),
      fixture('reports/e.ts', "import type { RunReport } from '../sim/runner';"),
      fixture('scenarios/f.ts', "export { K } from '../sim/actors/protocol/message_kinds';"),
      fixture('sim/checker/g.ts', "const m = await import('../kernel');\nimport 'seedrandom';"),
      fixture('sim/kernel/h.test.ts', "import { X } from '../actors/x';"),
    ];
    expect(importViolations(files, known)).toEqual([
      "sim/kernel/a.ts:1: sim/kernel must not import sim/actors ('sim/actors') (rule 2)",
      "sim/kernel/a.ts:2: sim/kernel may not import the package 'node:fs' (rule 2)",
      "sim/actors/b.ts:1: import sim/kernel through 'sim/kernel/index.ts', not " +
        "'sim/kernel/rng.ts' (rule 3)",
      "reports/d.ts:1: reports may import only types from sim/runner: use 'import type' (rule 2)",
      "sim/checker/g.ts:1: sim/checker must not import sim/kernel ('sim/kernel/index.ts') " +
        '(rule 2)',
      "sim/checker/g.ts:2: 'seedrandom' may only be imported by its home " +
        '^sim\\/kernel\\/rng\\.ts$ (rule 4)',
    ]);
  });

  it('flags banned APIs in code but not in comments or strings', () => {
    const text = [
      'const a = Math.random(); // Math.random in a comment is fine',
      "const b = 'Date.now() in a string is fine';",
      'const c = `${Date.now()} in a template expression`;',
      'for (const key in record) use(key);',
      '/** performance.now() in a doc comment */ const d = performance.now();',
      'const e = node.startDate + ctx.setTimer(1, x) + history.process;',
      "import { readFileSync } from 'node:fs';",
    ].join('\n');
    expect(bannedApiViolations([fixture('faults/x.ts', text)])).toEqual([
      'faults/x.ts:1: Math.random: use ctx.rng (Rng)',
      'faults/x.ts:3: Date: use the kernel clock (ctx.nowUs())',
      'faults/x.ts:4: for…in: iterate a Map or Object.keys()',
      'faults/x.ts:5: performance: use the kernel clock (ctx.nowUs())',
      "faults/x.ts:7: 'node:fs' (no file I/O or wall-clock time in the simulation)",
    ]);
    expect(bannedApiViolations([fixture('faults/x.test.ts', text)])).toEqual([]);
  });

  it('flags long files, long lines and long functions, and odd file names', () => {
    const body = Array.from({ length: 69 }, () => '  step();').join('\n');
    const text = [
      `function short() {\n${body.split('\n').slice(1).join('\n')}\n}`,
      `const long = () => {\n${body}\n};`,
      `// ${'x'.repeat(98)}`,
      `// see https://example.org/${'x'.repeat(100)}`,
    ].join('\n');
    expect(sizeViolations([fixture('runner/x.ts', text)])).toEqual([
      'runner/x.ts:142: 101 columns (at most 100)',
      'runner/x.ts:71: function long has 71 lines (at most 70)',
    ]);
    const huge = fixture('runner/y.ts', 'x;\n'.repeat(600));
    expect(sizeViolations([huge])).toEqual(['runner/y.ts: 600 lines (must stay under 600)']);
    const names = ['sim/kernel/EventQueue.ts', 'faults/clog-link.ts', 'sim/kernel/a_b.test.ts'];
    expect(fileNameViolations(names.map((name) => fixture(name, '')))).toEqual([
      'sim/kernel/EventQueue.ts: file names are snake_case, e.g. event_queue.ts (rule 30)',
      'faults/clog-link.ts: file names are snake_case, e.g. event_queue.ts (rule 30)',
    ]);
  });
});

describe('source rules (the tree)', () => {
  const files = readTree();
  const known = new Set(files.map((file) => file.path));

  it('finds the kernel', () => {
    expect(known.has('sim/kernel/simulation.ts')).toBe(true);
  });

  it('imports point one way, through entry modules (rules 2, 3 and 4)', () => {
    assertNone('import direction', importViolations(files, known));
  });

  it('sim/ and faults/ use no banned API (rule 10)', () => {
    assertNone('the determinism ban list', bannedApiViolations(files));
  });

  it('files, lines and functions stay within size limits (rule 37)', () => {
    assertNone('size limits', sizeViolations(files));
  });

  it('file names are snake_case (rule 30)', () => {
    assertNone('file naming', fileNameViolations(files));
  });
});
