/**
 * Goal: the fault language's command-line contract. An invalid fault (unknown kind, unknown
 * target, negative duration, a message type Kafka does not have) is one line naming file, line
 * and key, exit 64; `--swarm` prints the drawn parameters right after the seed and stores them
 * in the report; `--export-scenario` writes a file that replays the run; `shrink` prints the
 * sizes before and after and writes a file that still fails; a liveness outcome exits 2.
 * Method: call `main` in-process on scenario files written to a temporary directory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../cli';
import { runCli, scratchDir, type CliCall } from './cli_helpers';

const cli = (argv: readonly string[]): Promise<CliCall> => runCli(main, argv);
const scratch = scratchDir();
afterAll(() => scratch.remove());

/** A valid scenario whose fault list is `fault` (YAML lines indented by four). */
function withFault(fault: string): string {
  return `name: bad-fault
cluster:
  topics:
    - name: orders
clients:
  - name: A
    role: producer
    workload:
      sends: 5
      topics: [orders]
faults:
  - kind: pause
    target: A
    at.ms: 1
    for.ms: 1
${fault}
run:
  duration.ms: 1000
`;
}

describe('invalid faults', () => {
  const cases = [
    ['an unknown kind', '  - kind: meteor\n    at.ms: 1', 16, 'faults[1].kind: must be one of'],
    [
      'an unknown target',
      '  - kind: crash\n    target: b9\n    at.ms: 1',
      17,
      'faults[1].target: unknown node b9: expected one of b1, b2, b3, A',
    ],
    [
      'a negative duration',
      '  - kind: pause\n    target: A\n    at.ms: 1\n    for.ms: -5',
      19,
      'faults[1].for.ms: must be an integer > 0',
    ],
    [
      'a message type Kafka does not have',
      '  - kind: drop\n    messages: [ProduceRequest]\n    at.ms: 1\n    for.ms: 5',
      17,
      'faults[1].messages[0]: must be one of Produce, ProduceResponse',
    ],
    [
      'a leader of a partition that does not exist',
      '  - kind: pause\n    target: leader:orders-4\n    at.ms: 1\n    for.ms: 5',
      17,
      'faults[1].target: unknown topic-partition orders-4: expected one of orders-0..orders-0',
    ],
  ] as const;
  for (const [what, fault, line, detail] of cases) {
    it(`${what}: one line naming file, line and key; exit 64`, async () => {
      const file = scratch.write(`${what.replaceAll(' ', '-')}.yaml`, withFault(fault));
      const { code, stdout, stderr } = await cli(['run', file, '--seed', '1']);
      expect(code).toBe(64);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`Invalid scenario ${file}:${line}: ${detail}`);
    });
  }
});

describe('run --swarm and --export-scenario', () => {
  it('prints the swarm draws after the seed, stores them, exports a replayable file', async () => {
    const out = join(scratch.path, 'exported.yaml');
    const args = ['run', 'scenarios/replicated-random-faults.yaml', '--seed', '4', '--swarm'];
    const first = await cli([...args, '--json', '--export-scenario', out]);
    const lines = first.stderr.split('\n');
    expect(lines[0]).toBe('seed=4');
    expect(lines[1]).toMatch(/^swarm kinds=[a-z,-]+ interval\.ms=\d+ /);
    expect(lines[2]).toMatch(/^swarm configs replica\.lag\.time\.max\.ms=\d+ /);
    const report = JSON.parse(first.stdout) as {
      swarm: { kinds: string[] };
      eventHash: string;
      reproduce: string;
    };
    expect(report.swarm.kinds.length).toBeGreaterThan(0);
    expect(report.reproduce).toContain('--seed 4 --swarm');
    expect(readFileSync(out, 'utf8')).toContain('# Realised from');
    const replay = await cli(['run', out, '--seed', '4', '--json']);
    const replayed = JSON.parse(replay.stdout) as { eventHash: string };
    expect(replayed.eventHash).toBe(report.eventHash);
  });
});

describe('shrink', () => {
  it('prints sizes before and after and writes a file that still fails', async () => {
    const out = join(scratch.path, 'min.yaml');
    const file = 'scenarios/known-bugs/retry-without-idempotence.yaml';
    const { code, stdout } = await cli(['shrink', file, '--seed', '1', '--out', out]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^seed=1\nkind {4}duplicate\nbefore {2}1 faults \+ 300 operations = 301 /,
    );
    expect(stdout).toMatch(/\nafter {3}\d+ faults \+ \d+ operations = \d+ /);
    expect(stdout).toContain(`written ${out} (replayed: same kind found)`);
  });

  it('needs --seed and --out (exit 64)', async () => {
    const { code, stderr } = await cli(['shrink', 'scenarios/zombie-fencing.yaml']);
    expect(code).toBe(64);
    expect(stderr).toBe('Usage error: shrink needs --seed\n');
  });
});

describe('liveness exit code', () => {
  it('a stall the scenario does not expect exits 2', async () => {
    const text = readFileSync('scenarios/shared-transactional-id.yaml', 'utf8');
    const file = scratch.write(
      'shared-transactional-id-required.yaml',
      text.replace('  liveness: false', '  liveness: true'),
    );
    const { code, stdout } = await cli(['run', file, '--seed', '1']);
    expect(code).toBe(2);
    expect(stdout).toMatch(/producers without progress: A, B \(\d+ fencing errors/);
  });

  it('shared-transactional-id, a stall it expects: neither producer made progress', async () => {
    const { code, stdout } = await cli([
      'run',
      'scenarios/shared-transactional-id.yaml',
      '--seed',
      '1',
    ]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /did NOT converge \(producers without progress: A, B \(\d+ fencing errors/,
    );
  });
});
