/**
 * Goal: the pure parts of sweeps hold at their edges: `--shard K/N` splits any seed range into
 * disjoint shards that cover it, following ((s - first) mod N) + 1, also past JavaScript's safe
 * integers; result lines are canonical JSON; the results file tolerates the truncated line a
 * kill leaves (and cuts it off before appending) but rejects any other malformed line; the
 * lock of an `--out` folder keeps a second sweep out while its holder lives, and is taken over
 * once the holder died, also when a restarted container gave the new sweep the dead one's pid.
 *
 * Method: call the helpers directly on hand-built ranges, lines and files in a temporary
 * directory.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  LOCK_FILE_NAME,
  canonicalJson,
  comparableLine,
  isInShard,
  lockOut,
  parseShard,
  readResults,
  shardOf,
  shardSeedCount,
  shardSeeds,
  type SeedRange,
} from '../../cli/index';
import type { SweepResultLine } from '../../reports';
import { scratchDir } from '../cli/cli_helpers';

const scratch = scratchDir();
afterAll(() => scratch.remove());

describe('--shard K/N', () => {
  it('parses K/N with 1 <= K <= N and rejects anything else', () => {
    expect(parseShard('3/16')).toEqual({ index: 3, count: 16 });
    expect(parseShard('1/1')).toEqual({ index: 1, count: 1 });
    for (const bad of ['0/4', '5/4', '1/0', '3', '3/', '/4', '-1/4', '1.5/4', '01/4', ' 1/4']) {
      expect(() => parseShard(bad), bad).toThrow(/^Usage error: --shard must/);
    }
  });

  it('puts seed s in shard ((s - first) mod N) + 1', () => {
    const range = { first: '5', last: '20' };
    expect(shardOf('5', range, 4)).toBe(1);
    expect(shardOf('8', range, 4)).toBe(4);
    expect(shardOf('9', range, 4)).toBe(1);
    expect([...shardSeeds(range, { index: 2, count: 4 })]).toEqual(['6', '10', '14', '18']);
  });

  it('splits ranges into disjoint shards that cover them, for many ranges and counts', () => {
    const ranges: SeedRange[] = [
      { first: '1', last: '1' },
      { first: '1', last: '16' },
      { first: '3', last: '10' },
      { first: '0', last: '99' },
      { first: '18446744073709551610', last: '18446744073709551615' },
    ];
    for (const range of ranges) {
      const all = [];
      for (let seed = BigInt(range.first); seed <= BigInt(range.last); seed++) {
        all.push(seed.toString());
      }
      for (const count of [1, 2, 3, 4, 7, 16, 200]) {
        const union: string[] = [];
        for (let index = 1; index <= count; index++) {
          const seeds = [...shardSeeds(range, { index, count })];
          expect(seeds.length).toBe(shardSeedCount(range, { index, count }));
          for (const seed of seeds) {
            expect(shardOf(seed, range, count)).toBe(index);
            expect(isInShard(seed, range, { index, count })).toBe(true);
          }
          union.push(...seeds);
        }
        union.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
        expect(union, `${range.first}..${range.last} in ${count}`).toEqual(all);
      }
    }
    expect(isInShard('21', { first: '5', last: '20' }, { index: 1, count: 4 })).toBe(false);
    expect(isInShard('007', { first: '1', last: '20' }, { index: 3, count: 4 })).toBe(false);
  });
});

/** A result line with made-up values. */
function line(seed: string, overrides: Partial<SweepResultLine> = {}): SweepResultLine {
  return {
    file: 'scenarios/x.yaml',
    scenario: 'x',
    hash: 'ab'.repeat(32),
    seed,
    version: '0.1.0',
    outcome: 'pass',
    anomalies: {},
    expected: [],
    allowed: [],
    detectPercentMin: 0,
    unexpected: [],
    unmet: [],
    coverage: { 'fault:pause': 1 },
    eventHash: '0123456789abcdef',
    eventsRun: 10,
    simulatedUs: 1000,
    reproduce: `npx --offline --no-install eos-sim run scenarios/x.yaml --seed ${seed}`,
    wallMs: 12,
    ...overrides,
  };
}

describe('results.jsonl', () => {
  it('writes canonical JSON and compares lines without wallMs', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(comparableLine(line('1'))).toBe(comparableLine(line('1', { wallMs: 999 })));
    expect(comparableLine(line('1'))).not.toBe(comparableLine(line('1', { eventHash: 'x' })));
  });

  it('ignores a truncated last line, and with repair cuts it off the file', () => {
    const path = join(scratch.path, 'truncated.jsonl');
    const complete = `${canonicalJson(line('1'))}\n${canonicalJson(line('2'))}\n`;
    writeFileSync(path, `${complete}${canonicalJson(line('3')).slice(0, 40)}`);
    const read = readResults(path, { repair: false, missingOk: false });
    expect(read.lines.map((item) => item.seed)).toEqual(['1', '2']);
    expect(read.truncatedTailBytes).toBe(40);
    readResults(path, { repair: true, missingOk: false });
    expect(readFileSync(path, 'utf8')).toBe(complete);
    appendFileSync(path, `${canonicalJson(line('3'))}\n`);
    expect(readResults(path, { repair: true, missingOk: false }).lines).toHaveLength(3);
  });

  it('rejects a malformed line that is not the last, naming file and line', () => {
    const path = join(scratch.path, 'bad.jsonl');
    writeFileSync(path, `${canonicalJson(line('1'))}\n{"seed":\n${canonicalJson(line('3'))}\n`);
    expect(() => readResults(path, { repair: false, missingOk: false })).toThrow(
      `Usage error: ${path}:2 is not a result line: not JSON`,
    );
    writeFileSync(path, `${canonicalJson({ ...line('1'), outcome: 'great' })}\n`);
    expect(() => readResults(path, { repair: false, missingOk: false })).toThrow(
      /:1 is not a result line: outcome/,
    );
  });

  it('reads a missing file as empty only when asked to', () => {
    const path = join(scratch.path, 'missing.jsonl');
    expect(readResults(path, { repair: true, missingOk: true }).lines).toEqual([]);
    expect(() => readResults(path, { repair: false, missingOk: false })).toThrow(
      'Usage error: results file not found',
    );
  });
});

describe('the --out lock', () => {
  it('keeps a second sweep out while the holder lives, and takes over a dead holder', () => {
    const out = join(scratch.path, 'locked');
    mkdirSync(out);
    const release = lockOut(out);
    expect(readFileSync(join(out, LOCK_FILE_NAME), 'utf8')).toMatch(
      new RegExp(`^${process.pid} [0-9a-f-]{36}\n$`),
    );
    expect(() => lockOut(out)).toThrow(
      `Usage error: another sweep (process ${process.pid}) is writing to ${out}`,
    );
    release();
    expect(existsSync(join(out, LOCK_FILE_NAME))).toBe(false);
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(join(out, LOCK_FILE_NAME), `${dead.stdout.toString()}\n`);
    lockOut(out)();
  });

  it('takes over a lock with its own pid left by an earlier process (a restarted pod)', () => {
    const out = join(scratch.path, 'restarted');
    mkdirSync(out);
    const token = '00000000-0000-4000-8000-000000000000';
    for (const stale of [`${process.pid} ${token}\n`, `${process.pid}\n`]) {
      writeFileSync(join(out, LOCK_FILE_NAME), stale);
      const release = lockOut(out);
      expect(readFileSync(join(out, LOCK_FILE_NAME), 'utf8')).not.toBe(stale);
      release();
    }
  });
});
