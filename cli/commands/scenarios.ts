/**
 * `eos-sim scenarios`: lists the bundled scenario files with their name, the anomalies each
 * expects and the first sentence of its description. A file that does not load is listed with
 * its error on stderr, and the command then exits 64.
 */
import { listScenarioFiles, loadScenario, type ScenarioConfig } from '../../scenarios';
import { wrapText } from '../../reports';
import { EXIT_CODES, isInputError, type ExitCode } from '../exit_codes';
import type { CliContext } from '../io';
import { bundledScenarioDir } from '../paths';

/** Descriptions wrap at this column. */
const WRAP_COLUMNS = 100;

/**
 * The first sentence of a description (folded YAML makes the whole paragraph one line).
 * @example firstSentence('A producer pauses. Then B starts.') // 'A producer pauses.'
 */
function firstSentence(text: string): string {
  const firstLine = text.split('\n')[0] ?? '';
  const end = /\.(\s|$)/.exec(firstLine);
  return end === null ? firstLine : firstLine.slice(0, end.index + 1);
}

function describeScenario(scenario: ScenarioConfig): string[] {
  const { anomalies, detectPercentMin, fenced } = scenario.expect;
  const expects =
    anomalies.length === 0
      ? 'no anomaly'
      : `${anomalies.join(', ')} (in at least ${detectPercentMin}% of seeds)`;
  const lines = [
    scenario.file,
    `  name     ${scenario.name}`,
    `  expects  ${expects}${fenced.length === 0 ? '' : `; fenced: ${fenced.join(', ')}`}`,
    `  seeds    ${scenario.seeds.first}..${scenario.seeds.last}`,
  ];
  const about = firstSentence(scenario.description);
  if (about !== '') {
    const [head = '', ...rest] = wrapText(about, { width: WRAP_COLUMNS, indent: '           ' });
    lines.push(`  about    ${head.trimStart()}`, ...rest);
  }
  return lines;
}

/**
 * Runs `eos-sim scenarios` and returns its exit code.
 * @example scenariosCommand(context) // 0, after listing scenarios/*.yaml
 */
export function scenariosCommand(context: CliContext): ExitCode {
  const { stdout, stderr } = context.io;
  let exitCode: ExitCode = EXIT_CODES.ok;
  for (const file of listScenarioFiles(bundledScenarioDir())) {
    try {
      stdout.write(`${describeScenario(loadScenario(file)).join('\n')}\n`);
    } catch (error) {
      if (!isInputError(error)) throw error;
      stderr.write(`${error.message}\n`);
      exitCode = EXIT_CODES.usage;
    }
  }
  return exitCode;
}
