/**
 * Goal: the project stands alone. Comments, docs and scenario files cite Kafka itself (a class
 * and method of apache/kafka, a KIP, a KAFKA JIRA), never the numbered rules (`R3.5`) or sections
 * (`reference §6`) of a protocol digest that lives outside this repository: a reader must be able
 * to follow every citation from a clean clone.
 *
 * Method: read every text file of the tree a person reads or edits (TypeScript, JavaScript,
 * Markdown, YAML, JSON; not `node_modules` nor `package-lock.json`) and list each line that
 * carries such a citation. The detector runs first on inline fixtures, so a detector that
 * silently stopped finding anything fails too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SKIPPED_DIRECTORIES = new Set(['node_modules', 'out', 'sweep-out', 'dist', 'coverage']);
/** The lock file is generated; this file names the patterns it bans. */
const SKIPPED_FILES = new Set(['package-lock.json', 'source_citations.test.ts']);
const CHECKED_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.md', '.yaml', '.yml', '.json'];

/** A rule number of the outside digest (`R1.3`, `R2.5.1`) or one of its sections. */
const OUTSIDE_CITATION = /(?<![\w.])R\d+\.\d+(?:\.\d+)?(?![\w])|\breference §\d/;

/** Every line of `text` that cites the outside digest, as `file:line: text`. */
export function outsideCitations(file: string, text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    if (OUTSIDE_CITATION.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
  return found;
}

function listTextFiles(directory: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, directory), { withFileTypes: true })) {
    const relative = directory === '' ? entry.name : `${directory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && !SKIPPED_DIRECTORIES.has(entry.name)) {
        found.push(...listTextFiles(relative));
      }
    } else if (
      CHECKED_EXTENSIONS.some((extension) => entry.name.endsWith(extension)) &&
      !SKIPPED_FILES.has(entry.name)
    ) {
      found.push(relative);
    }
  }
  return found;
}

describe('outside citations detector (fixtures)', () => {
  it('flags rule numbers and digest sections, and nothing else', () => {
    const text = [
      '/** The HW rule (R1.5). */',
      '// see R2.5.1 and R3.3-R3.13',
      ' * Defaults are Kafka own (reference §8).',
      '/** KIP-890; TransactionCoordinator.handleEndTransaction; KAFKA-19367; version 3.7.1 */',
      "const r = 'PR1.2 x1.2 R12';",
    ].join('\n');
    expect(outsideCitations('sim/x.ts', text)).toEqual([
      'sim/x.ts:1: /** The HW rule (R1.5). */',
      'sim/x.ts:2: // see R2.5.1 and R3.3-R3.13',
      'sim/x.ts:3: * Defaults are Kafka own (reference §8).',
    ]);
  });
});

describe('outside citations (the tree)', () => {
  const files = listTextFiles('');

  it('reads the docs and the model', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('sim/actors/coordinator/transaction_coordinator.ts');
  });

  it('cites Kafka (class and method, KIP, JIRA), not an outside digest', () => {
    const found = files.flatMap((file) =>
      outsideCitations(file, readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(found, `cite Kafka's sources instead:\n  ${found.join('\n  ')}`).toEqual([]);
  });
});
