/**
 * Runs shared by the report tests: a failing seed of the zombie-fencing bug variant, the same
 * run with HTML in its scenario name and transactional.id (client names cannot hold `<`: the
 * schema allows only A-Z a-z 0-9 _ . -, so these are the strings a scenario can smuggle), and a
 * seed of the hanging-transaction scenario.
 *
 * The bug variant must run in the configuration its description is about, transaction version 1
 * with `transaction.partition.verification.enable: false`: with KIP-890 verification on, the
 * partition leader asks the coordinator before appending a transactional batch and rejects the
 * zombie's records even with the epoch check off. The bundled file sets both keys now; the
 * fixture adds them only if a future edit of the file drops them, and leaves them alone otherwise.
 */
import { readFileSync } from 'node:fs';
import { runScenario, type RunResult } from '../../sim/runner';
import { parseScenario } from '../../scenarios';

export const ZOMBIE_BUG_FILE = 'scenarios/known-bugs/zombie-fencing-no-epoch-check.yaml';
/** A seed on which the bug variant shows zombie-write (checked by the tests that use it). */
export const ZOMBIE_BUG_SEED = '2';
export const HANGING_FILE = 'scenarios/hanging-transaction.yaml';
/** A seed on which hanging-transaction.yaml shows hanging-transaction. */
export const HANGING_SEED = '1';
/** What the hostile scenario puts where a scenario can put free text. */
export const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned=2">';

/** The bug variant's text in its pre-KIP-890 configuration. */
export function zombieBugText(): string {
  let text = readFileSync(ZOMBIE_BUG_FILE, 'utf8');
  if (!text.includes('transaction.partition.verification.enable')) {
    text = text.replace(
      /^broker:\n/m,
      'broker:\n  transaction.partition.verification.enable: false\n',
    );
  }
  if (!text.includes('transaction.version')) {
    text = text.replace(/^bugs:\n/m, 'protocol:\n  transaction.version: 1\nbugs:\n');
  }
  return text;
}

/** The bug variant at {@link ZOMBIE_BUG_SEED}. */
export function zombieBugRun(): RunResult {
  const scenario = parseScenario(zombieBugText(), ZOMBIE_BUG_FILE);
  return runScenario(scenario, { seed: ZOMBIE_BUG_SEED });
}

/** The bug variant with {@link HOSTILE} as scenario name and transactional.id. */
export function hostileRun(): RunResult {
  const text = zombieBugText()
    .replace(/^name: .*$/m, `name: '${HOSTILE}'`)
    .replace(/transactional\.id: orders-tx/g, `transactional.id: '${HOSTILE}'`);
  return runScenario(parseScenario(text, 'hostile.yaml'), { seed: ZOMBIE_BUG_SEED });
}

/** hanging-transaction.yaml at {@link HANGING_SEED}. */
export function hangingRun(): RunResult {
  const scenario = parseScenario(readFileSync(HANGING_FILE, 'utf8'), HANGING_FILE);
  return runScenario(scenario, { seed: HANGING_SEED });
}
