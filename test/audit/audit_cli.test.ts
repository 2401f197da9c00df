/**
 * Goal: `eos-sim audit` refuses bad input before it runs anything, on one line with exit 64, and
 * its fix table and reproducer transplant behave as documented. Method: in-process `main` with
 * scratch files (no seed runs), the fix table on its own, and a reproducer built from the
 * common-mistake example with a fix put in (no runs either).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { runCli } from '../cli/cli_helpers';
import { applyFix, candidateFixes, fixText } from '../../cli/audit/audit_fixes';
import { prepareAudit } from '../../cli/audit/audit_run';
import { fixedReproducer } from '../../cli/audit/audit_reproduce';
import { auditScenario } from '../../cli/audit/audit_scenario';
import { drawSwarm, realiseScenario } from '../../sim/runner';

const scratch = mkdtempSync(join(tmpdir(), 'eos-sim-audit-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const MISTAKE = 'examples/audit/common-mistake';

describe('eos-sim audit: usage errors exit 64 with one line', () => {
  const server = join(scratch, 'server.properties');
  writeFileSync(server, 'min.insync.replicas=2\n');
  const cases: Array<[string, string[], RegExp]> = [
    ['a directory', [server, scratch], /is a directory/],
    ['an unknown --expect', [server, '--expect', 'most-once'], /--expect must be one of/],
    ['a report that is neither .md nor .html', [server, '--report', 'a.txt'], /\.md or \.html/],
    ['a missing file', [join(scratch, 'nope.properties')], /cannot read: ENOENT/],
  ];
  for (const [name, args, message] of cases) {
    it(name, async () => {
      const call = await runCli(main, ['audit', ...args, '--out', join(scratch, 'out')]);
      expect(call.code).toBe(64);
      expect(call.stderr).toMatch(message);
      expect(call.stderr.trim().split('\n')).toHaveLength(1);
    });
  }
  it('a binary file and an unbalanced escape', async () => {
    const binary = join(scratch, 'bin.properties');
    writeFileSync(binary, Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x00, 0x02]));
    const escape = join(scratch, 'escape-producer.properties');
    writeFileSync(escape, 'acks=all\nclient.id=\\uZZZZ\n');
    for (const [file, message] of [
      [binary, 'binary file (a NUL byte), not a .properties file'],
      [escape, 'client.id: Malformed \\uxxxx encoding.'],
    ] as const) {
      const call = await runCli(main, ['audit', server, file, '--out', join(scratch, 'out')]);
      expect([call.code, call.stderr]).toEqual([
        64,
        `Usage error: ${file}:${file === binary ? 1 : 2}: ${message}\n`,
      ]);
    }
  });
  it('nothing is written when a file is refused', async () => {
    const out = join(scratch, 'refused');
    mkdirSync(out);
    const bad = join(scratch, 'bad-producer.properties');
    writeFileSync(bad, 'enable.idempotence=true\nacks=1\n');
    const call = await runCli(main, ['audit', server, bad, '--out', out]);
    expect(call.stderr).toBe(
      `Usage error: ${bad}:2: ConfigException: Must set acks to all in order to use the ` +
        'idempotent producer. Otherwise we cannot guarantee idempotence.\n',
    );
  });
});

describe('the fix table', () => {
  it('tries the smallest change first and upgrades only to newer releases', () => {
    const newerThan39 = (version: string) => Number(version) > 3.9;
    const fixes = candidateFixes('lost-write', newerThan39).map(fixText);
    expect(fixes[0]).toBe('acks=all (producer files)');
    expect(fixes.slice(-3)).toEqual([
      'Kafka 4.0 (--kafka-version)',
      'Kafka 4.1 (--kafka-version)',
      'Kafka 4.5 (--kafka-version)',
    ]);
    expect(candidateFixes('lost-write', () => false).some((fix) => fix.kafkaVersion)).toBe(false);
    expect(candidateFixes('invariant', () => true)).toEqual([]);
  });

  it('a fix put into a reproducer keeps what swarm drew and takes the fixed settings', () => {
    const { input, scenario } = prepareAudit({
      files: [`${MISTAKE}/server.properties`, `${MISTAKE}/producer.properties`],
      kafkaVersion: '4.5',
      out: scratch,
    });
    const drawn = realiseScenario(drawSwarm(scenario, '3').scenario, '3');
    const fixed = auditScenario(
      applyFix(input, { edits: [{ on: 'producer', key: 'acks', value: 'all' }] }),
      {
        kafkaVersion: '4.5',
        file: 'fixed.yaml',
      },
    ).scenario;
    const merged = fixedReproducer(drawn, fixed);
    const before = drawn.clients[0];
    const after = merged.clients[0];
    if (before?.role !== 'producer' || after?.role !== 'producer') throw new Error('no producer');
    expect([before.settings.acks, before.settings.enableIdempotence]).toEqual([1, false]);
    // Kafka's default idempotence comes back with acks=all (KIP-679).
    expect([after.settings.acks, after.settings.enableIdempotence]).toEqual([-1, true]);
    expect(after.settings.requestTimeoutMs).toBe(before.settings.requestTimeoutMs);
    const timing = (faults: typeof drawn.faults) =>
      faults.map((fault) => [fault.kind, fault.atMs, 'forMs' in fault ? fault.forMs : null]);
    expect(timing(merged.faults)).toEqual(timing(drawn.faults));
  });
});
