/**
 * Goal: docs/invariants.md lists every invariant the state checker can report, with what must
 * hold and its source, and lists none it cannot. Method: the names in the source
 * (`invariant: '<name>'` in sim/runner/state_checker.ts) against the first column of the
 * document's invariant table; the extraction runs first on an inline sample so a pattern that
 * stopped matching fails instead of comparing two empty lists.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const SOURCE = 'sim/runner/state_checker.ts';
const DOC = 'docs/invariants.md';

function namesInSource(text: string): string[] {
  return [...new Set([...text.matchAll(/invariant: '([a-z-]+)'/g)].map((m) => m[1] ?? ''))].sort();
}

/** The first cell of every row of the table under `## Invariants`, up to the next heading. */
function namesInDoc(text: string): string[] {
  const section = text.split('## Invariants')[1]?.split('\n## ')[0] ?? '';
  const names = section
    .split('\n')
    .map((line) => /^\| `([a-z-]+)`\s*\|/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  return [...new Set(names)].sort();
}

describe('docs/invariants.md', () => {
  it('the extraction finds names in a sample of each', () => {
    expect(namesInSource("{ invariant: 'b-two', x }\n{ invariant: 'a-one' }")).toEqual([
      'a-one',
      'b-two',
    ]);
    const doc =
      '## Invariants\n\n| name | what |\n| --- | --- |\n| `a-one` | x |\n\n## Next\n| `z` | |';
    expect(namesInDoc(doc)).toEqual(['a-one']);
  });

  it('lists exactly the invariants the state checker reports', () => {
    const source = namesInSource(readFileSync(SOURCE, 'utf8'));
    expect(source.length).toBeGreaterThan(5);
    expect(namesInDoc(readFileSync(DOC, 'utf8'))).toEqual(source);
  });
});
