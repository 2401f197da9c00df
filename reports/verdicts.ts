/** The guarantee verdict a report prints next to each anomaly kind. */
import type { RunReport } from '../sim/runner';

/**
 * The guarantee verdict of `kind` ("permitted by Kafka under this configuration, because …" or
 * "violates Kafka's guarantee"); a report without verdicts (an older JSON) says so.
 */
export function verdictOf(report: RunReport, kind: string): string {
  const verdict = report.guarantee?.verdicts.find((candidate) => candidate.kind === kind);
  if (verdict !== undefined) return verdict.label;
  return report.unexpectedAnomalyTypes.includes(kind)
    ? 'NOT allowed by this configuration'
    : 'expected for this configuration';
}
