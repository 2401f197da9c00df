/**
 * Runs seeds of one scenario in this process, one after another, the way one sweep worker does
 * (no message log), and prints wall and CPU milliseconds per seed: the loop to profile when a
 * sweep is slow. Five warm-up seeds run first so the profile shows the steady state.
 *
 * ```sh
 * npx tsx bench/profile_seeds.ts scenarios/zombie-fencing.yaml 100
 * node --import tsx --cpu-prof --cpu-prof-dir=prof bench/profile_seeds.ts \
 *   scenarios/zombie-fencing.yaml 100
 * ```
 *
 * Arguments: the scenario file (default zombie-fencing), the seed count (default 50), and
 * `--message-log` to keep the message log as `eos-sim run` does.
 */
import { loadScenario } from '../scenarios';
import { runScenario } from '../sim/runner';

const [file = 'scenarios/zombie-fencing.yaml', countText = '50'] = process.argv
  .slice(2)
  .filter((arg) => !arg.startsWith('--'));
const messageLog = process.argv.includes('--message-log');
const count = Number(countText);
const scenario = loadScenario(file);
for (let seed = 1_000_000; seed < 1_000_005; seed++) {
  runScenario(scenario, { seed: String(seed), messageLog });
}
const startMs = performance.now();
const startCpu = process.cpuUsage();
let events = 0;
for (let seed = 1; seed <= count; seed++) {
  events += runScenario(scenario, { seed: String(seed), messageLog }).report.eventsRun;
}
const wallMs = performance.now() - startMs;
const cpu = process.cpuUsage(startCpu);
const cpuMs = (cpu.user + cpu.system) / 1000;
console.log(
  `${file}: ${count} seeds, ${(wallMs / count).toFixed(1)} ms/seed wall, ` +
    `${(cpuMs / count).toFixed(1)} ms/seed CPU (all threads), ${Math.round(events / count)} ` +
    `events/seed, ${Math.round(events / (wallMs / 1000))} events/s`,
);
