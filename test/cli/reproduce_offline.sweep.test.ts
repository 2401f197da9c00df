/**
 * Goal: a pasted reproduce line never reaches a registry. Every reproduce line starts with
 * `npx --offline --no-install eos-sim` (sim/runner/reproduce.ts). Outside a project that has
 * eos-sim installed it must fail without a single request for the package (a bare `npx eos-sim`
 * asks the registry for a package of that name, and `--no-install` alone still fetches its
 * manifest first); in the checkout it runs the local bin. The package is private, so it can
 * never be published under that name by accident.
 *
 * Method: a logging HTTP server on 127.0.0.1 stands in for the registry (`npm_config_registry`),
 * with an empty npm cache and user config; run the reproduce line's launcher with `--version` in
 * an empty directory and in the checkout; compare with `npx --no-install`. Real npm processes
 * (seconds each), so this is in the sweeps tier.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_EOS_SIM, reproduceCommand } from '../../sim/runner';
import { scratchDir } from './cli_helpers';

const scratch = scratchDir();
const requests: string[] = [];
let server: Server;
let registry = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.statusCode = 404;
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  registry = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(() => {
  server.close();
  scratch.remove();
});

/** Runs `command` (words) in `cwd` against the fake registry; resolves with its exit code. */
function npm(command: readonly string[], cwd: string): Promise<{ code: number; output: string }> {
  const userconfig = join(scratch.path, 'npmrc');
  writeFileSync(userconfig, 'update-notifier=false\n');
  const env = {
    ...process.env,
    npm_config_registry: registry,
    npm_config_cache: join(scratch.path, 'cache'),
    npm_config_userconfig: userconfig,
  };
  const [file = '', ...args] = command;
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe('reproduce lines run the local install only', () => {
  it('start with npx --offline --no-install, and the package is private', () => {
    expect(reproduceCommand('scenarios/a.yaml', '7')).toBe(
      `${LOCAL_EOS_SIM} run scenarios/a.yaml --seed 7`,
    );
    expect(LOCAL_EOS_SIM).toBe('npx --offline --no-install eos-sim');
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { private?: boolean };
    expect(manifest.private).toBe(true);
  });

  it('outside a project with eos-sim: fails, and asks the registry nothing', async () => {
    const empty = join(scratch.path, 'empty');
    mkdirSync(empty);
    requests.length = 0;
    const offline = await npm([...LOCAL_EOS_SIM.split(' '), '--version'], empty);
    expect(offline.code).not.toBe(0);
    expect(offline.output).toContain('ENOTCACHED');
    expect(requests).toEqual([]);
    // The trap the launcher avoids: --no-install alone still asks for the package's manifest.
    const noInstall = await npm(['npx', '--no-install', 'eos-sim', '--version'], empty);
    expect(noInstall.code).not.toBe(0);
    expect(requests).toContain('GET /eos-sim');
  });

  it('in the checkout: runs the local bin without a request', async () => {
    requests.length = 0;
    const local = await npm([...LOCAL_EOS_SIM.split(' '), '--version'], process.cwd());
    expect(local.code).toBe(0);
    expect(local.output.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(requests).toEqual([]);
  });
});
