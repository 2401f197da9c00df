/**
 * Goal: the reports' first screen is the answer (verdict, then the table: anomaly, possible?,
 * why, fix, reproducer linked relative to the report), `--expect` decides the verdict, and the
 * HTML escapes what it prints. Method: a hand-built audit result on the common-mistake files'
 * scenario (no runs): lost-write found in 7 of 20 seeds, permitted, with a verified fix.
 */
import { describe, expect, it } from 'vitest';
import { ANOMALY_KINDS } from '../../sim/checker';
import { prepareAudit, type AuditResult, type KindAnswer } from '../../cli/audit/audit_run';
import { answerRows, expectationBroken } from '../../cli/audit/audit_answers';
import { auditMarkdown } from '../../cli/audit/audit_markdown';
import { auditHtml } from '../../cli/audit/audit_html';

const MISTAKE = 'examples/audit/common-mistake';
const { input, scenario } = prepareAudit({
  files: [`${MISTAKE}/server.properties`, `${MISTAKE}/producer.properties`],
  kafkaVersion: '4.5',
  out: 'out',
});
const size = { faults: 9, operations: 300, records: 300, clients: 1 };
const lost: KindAnswer = {
  kind: 'lost-write',
  found: {
    tally: { seeds: ['3', '5', '8', '9', '11', '14', '17'], violatingSeeds: [], permissions: {} },
    seed: '3',
    reason: 'permitted by Kafka under this configuration, because <acks=1>',
    reproducer: {
      file: 'out/reproducers/lost-write.yaml',
      seed: '3',
      scenario,
      before: size,
      after: { ...size, faults: 1 },
      replayed: true,
    },
    tried: [{ fix: 'acks=all (producer files)', result: 'verified', detail: '0 of 10 seeds' }],
  },
};
const result: AuditResult = {
  input,
  kafkaVersion: '4.5',
  scenario,
  scenarioFile: 'out/audit.yaml',
  seeds: { first: '1', last: '20' },
  fixSeeds: { first: '1', last: '10' },
  sweep: { seedsRun: 20, kinds: new Map(), livenessSeeds: [], errorSeeds: [], wallMs: 1000 },
  answers: ANOMALY_KINDS.map((kind) => (kind === 'lost-write' ? lost : { kind })),
  wallMs: 2000,
};

describe('the audit answer', () => {
  it('puts found kinds first and lets --expect decide', () => {
    const [first, second] = answerRows(result, 'no-loss');
    expect(first).toMatchObject({
      kind: 'lost-write',
      forbidden: true,
      possible: 'yes: 7 of 20 seeds (35%), first 3',
    });
    expect(first?.fix).toBe(
      'acks=all (producer files) (verified: the reproducer no longer shows it; 0 of 10 seeds)',
    );
    expect(second).toMatchObject({ found: false, possible: 'not found in 20 seeds' });
    expect(expectationBroken(result, 'no-loss')).toBe(true);
    expect(expectationBroken(result, 'no-duplicates')).toBe(false);
  });

  it('Markdown: verdict and table first, reproducer linked relative to the report', () => {
    const lines = auditMarkdown(result, 'no-loss', 'out/audit.md').split('\n');
    expect(lines[2]).toBe(
      '**--expect no-loss: NOT met: lost-write found in 20 swarm seeds (20 planned)**',
    );
    expect(lines[4]).toBe('| anomaly | possible? | why | fix | reproducer |');
    expect(lines[6]).toMatch(/^\| \*\*lost-write\*\* \(forbidden\) \| yes: 7 of 20 seeds/);
    expect(lines[6]).toContain('[reproducers/lost-write.yaml](reproducers/lost-write.yaml)');
  });

  it('HTML: the table comes before the files, and text is escaped', () => {
    const html = auditHtml(result, 'no-duplicates', 'out/audit.html');
    expect(html.indexOf('<table>')).toBeLessThan(html.indexOf('The files as read'));
    expect(html).toContain('--expect no-duplicates: met');
    expect(html).toContain('because &lt;acks=1&gt;');
    expect(html).toContain('<a href="reproducers/lost-write.yaml">');
  });
});
