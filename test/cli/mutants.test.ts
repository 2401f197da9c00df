/**
 * Goal: pin `eos-sim mutants`' parts that need no long search: the two generic bases (every bug
 * off; transaction version 0 without verification as the second), the table's columns, and the
 * usage error for a switch that does not exist. Method: the functions of cli/mutants.ts on a
 * loaded scenario, and the CLI in-process for the error. The searches themselves run in
 * test/cli/mutants.sweep.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { genericBases, renderMutantTable } from '../../cli/mutants';
import { BUG_IDS, loadScenario } from '../../scenarios';
import { runCli } from './cli_helpers';

describe('eos-sim mutants', () => {
  it('tries each switch on the newest release and on the pre-KIP-890 protocol', () => {
    const [tv2, tv0] = genericBases(loadScenario('scenarios/transactions-random-faults.yaml'));
    expect(tv2?.label).toBe('tv2');
    expect(tv0?.label).toBe('tv0');
    expect(tv0?.scenario.protocol.transactionVersion).toBe(0);
    expect(tv0?.scenario.broker.transactionPartitionVerificationEnable).toBe(false);
    for (const id of BUG_IDS) expect(tv2?.scenario.bugs[id]).toBe(false);
  });

  it('prints one row per switch with the seeds to its first catch', () => {
    const table = renderMutantTable([
      { id: 'KAFKA-6119', caught: true, seedsRun: 3, seed: '3', kind: 'lost-write', base: 'tv0' },
      { id: 'KAFKA-1211', caught: false, seedsRun: 20, seed: null, kind: null, base: null },
    ]);
    const lines = table.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^switch\s+\| caught \| seeds to first catch \| kind\s+\| base \| seed$/,
    );
    expect(lines[1]).toMatch(/^KAFKA-6119 \| yes\s+\| 3\s+\| lost-write \| tv0\s+\| 3$/);
    expect(lines[2]).toMatch(/^KAFKA-1211 \| no\s+\| none in 20\s+\| -/);
  });

  it('refuses a switch that is not in the registry with one usage line', async () => {
    const { code, stderr } = await runCli(main, ['mutants', '--switch', 'KAFKA-1']);
    expect(code).toBe(64);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('--switch must name bug switches');
  });
});
