/**
 * Goal: the worked example's report shows the example (issue 19): on the first screen of the
 * Markdown report, the last stable offset held at the open transaction's first offset, the lag
 * against the log end offset (broker-side) and against the LSO (a read_committed consumer's
 * `endOffsets()`), and the jump of the LSO on commit, with the workload's figures kept apart
 * from the heal and liveness phases; and the JSON timeline can be read at any time without an
 * impossible value (LSO ≤ HW ≤ LEO).
 *
 * Method: `examples/lso-worked-example-small.yaml` has the shape and timing of the full example
 * at a hundredth of the records (8,800 / 200 / 0 / 9,001 for 880,000 / 20,000 / 0 / 900,001),
 * so it runs in seconds; the full example is run by hand (`npx eos-sim run
 * examples/lso-worked-example.yaml --seed 1 --report run.md`, about a minute) and its numbers
 * are in docs/reports.md.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { renderMarkdownReport } from '../../reports';
import { loadScenario } from '../../scenarios';
import { runScenario, type RunReport } from '../../sim/runner';
import { valueAt } from '../../sim/runner/series_thinning';

const FILE = 'examples/lso-worked-example-small.yaml';
/** A first screen: what a terminal or a GitHub page shows before scrolling. */
const FIRST_SCREEN_LINES = 45;

let report: RunReport;
let firstScreen: string;

beforeAll(() => {
  report = runScenario(loadScenario(FILE), { seed: '1', messageLog: false }).report;
  firstScreen = renderMarkdownReport(report).split('\n').slice(0, FIRST_SCREEN_LINES).join('\n');
}, 120_000);

describe(`the report of ${FILE}, seed 1`, () => {
  it('passes', () => {
    expect(report.outcome).toBe('pass');
  });

  it('shows LSO 8,800, lag 200 and 0 and the jump to 9,001 on its first screen', () => {
    expect(firstScreen).toContain('## Workload phase (0 s – 720 s)');
    const stallRow = firstScreen
      .split('\n')
      .find((line) => line.startsWith('| events-0 | **8,800**'));
    expect(stallRow).toContain('| 9,000 / 9,000 |');
    expect(stallRow).toContain('| 200 |');
    expect(stallRow).toContain('**8,800 → 9,001** at 715.');
    const lagRow = firstScreen.split('\n').find((line) => line.startsWith('| reader | events-0 |'));
    // position 8,800: 200 behind the log end offset and the HW, 0 behind the LSO.
    expect(lagRow).toMatch(
      /\| read_committed \| 71[45]\.\d+ s \| 8,800 \| \*\*200\*\* \| 200 \| \*\*0\*\* \|$/,
    );
  });

  it('keeps the workload apart from heal and liveness', () => {
    const [gap] = report.metrics.stableOffsetGaps;
    const workload = gap?.phases.find((phase) => phase.phase === 'workload');
    const liveness = gap?.phases.find((phase) => phase.phase === 'liveness');
    expect(workload?.gapMax).toBe(200);
    // The probe's transactions hold back more than the example's one open transaction did.
    expect(liveness?.gapMax).toBeGreaterThan(200);
    expect(gap?.gapMax).toBe(liveness?.gapMax);
    expect(firstScreen).toContain(
      'Largest gap between high watermark and last stable offset: 200 (events-0) in the workload',
    );
    expect(report.phases.map((phase) => phase.name)).toEqual([
      'workload',
      'heal',
      'liveness',
      'settle',
      'final-reads',
    ]);
    expect(report.phases.at(-1)?.toUs).toBe(report.simulatedUs);
  });

  it('gives a timeline that reads LSO <= HW <= LEO at every kept time and in between', () => {
    const [timeline] = report.timeline.partitions;
    if (timeline === undefined) throw new Error('Expected the timeline of events-0');
    const times = timeline.logEndOffset.map((point) => point.timeUs);
    expect(timeline.highWatermark.map((point) => point.timeUs)).toEqual(times);
    expect(timeline.lastStableOffset.map((point) => point.timeUs)).toEqual(times);
    const probes = [...times, 714_000_000, 715_500_000, report.simulatedUs];
    for (const timeUs of probes) {
      const lso = valueAt(timeline.lastStableOffset, timeUs);
      const hw = valueAt(timeline.highWatermark, timeUs);
      const leo = valueAt(timeline.logEndOffset, timeUs);
      expect(lso <= hw && hw <= leo, `at ${timeUs} µs: LSO ${lso} HW ${hw} LEO ${leo}`).toBe(true);
    }
    expect(valueAt(timeline.lastStableOffset, 714_000_000)).toBe(8800);
    expect(valueAt(timeline.highWatermark, 714_000_000)).toBe(9000);
    expect(valueAt(timeline.lastStableOffset, 715_500_000)).toBe(9001);
  });
});
