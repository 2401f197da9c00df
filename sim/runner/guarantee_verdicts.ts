/**
 * The verdict on each anomaly kind a run found: permitted by Kafka under this configuration
 * (with the permission's reason and source), or a violation of Kafka's guarantee, which the
 * scenario may still expect (`expect.anomalies`: a known-bad configuration must be caught) or
 * accept (`expect.allowed`: what the guarantee model cannot know). A kind is permitted only when
 * every anomaly of it is, counted by classification before the report's example cap.
 */
import type { AnomalyKind, CheckResult } from '../checker';
import type { Expectations } from '../../scenarios';
import type { Permission } from './kafka_guarantee';

/** The verdict on one anomaly kind of a run. */
export interface KindVerdict {
  readonly kind: AnomalyKind;
  /** Anomalies of the kind, before the example cap. */
  readonly count: number;
  readonly verdict: 'permitted' | 'violates';
  /** The permission that covers the kind (the first that does), when permitted. */
  readonly permission?: Pick<Permission, 'id' | 'setting' | 'because' | 'source'>;
  /** For a violation: the scenario's key that expects or accepts it, or null. */
  readonly expectedBy: 'expect.anomalies' | 'expect.allowed' | null;
  /** "permitted by Kafka under this configuration, because …" or "violates Kafka's guarantee". */
  readonly label: string;
  /** What covered the kind, for sweep counts: `kafka:<permission id>`, a scenario key, or none. */
  readonly coveredBy: string;
}

type Judged = Omit<KindVerdict, 'label' | 'coveredBy'>;

/** Whether `permission` covers anomalies of `kind` with `classification`. */
function covers(permission: Permission, kind: AnomalyKind, classification?: string): boolean {
  if (!permission.kinds.includes(kind)) return false;
  const only = permission.classifications?.[kind];
  return only === undefined || (classification !== undefined && only.includes(classification));
}

/** The first permission covering every anomaly of `kind`, or undefined. */
function permissionFor(
  check: CheckResult,
  kind: AnomalyKind,
  permissions: readonly Permission[],
): Permission | undefined {
  const total = check.anomalyCounts.find((count) => count.kind === kind)?.count ?? 0;
  const classified = (check.classificationCounts ?? []).filter((count) => count.kind === kind);
  const classifiedTotal = classified.reduce((sum, count) => sum + count.count, 0);
  return permissions.find((permission) => {
    if (!permission.kinds.includes(kind)) return false;
    if (permission.classifications?.[kind] === undefined) return true;
    // Every anomaly of the kind must carry a classification the permission names.
    return (
      classifiedTotal === total &&
      classified.every((count) => covers(permission, kind, count.classification))
    );
  });
}

/**
 * One verdict per kind found, in the check's kind order.
 * @example judgeAnomalies(check, kafkaPermissions(input), scenario.expect)[0]?.verdict
 */
export function judgeAnomalies(
  check: CheckResult,
  permissions: readonly Permission[],
  expect: Pick<Expectations, 'anomalies' | 'allowed'>,
): KindVerdict[] {
  return check.anomalyCounts.map(({ kind, count }) => {
    const permission = permissionFor(check, kind, permissions);
    const expectedBy = expect.anomalies.includes(kind)
      ? 'expect.anomalies'
      : expect.allowed.includes(kind)
        ? 'expect.allowed'
        : null;
    if (permission === undefined) {
      return labelled({ kind, count, verdict: 'violates', expectedBy });
    }
    const { id, setting, because, source } = permission;
    return labelled({
      kind,
      count,
      verdict: 'permitted',
      permission: { id, setting, because, source },
      expectedBy: null,
    });
  });
}

function labelled(judged: Judged): KindVerdict {
  const coveredBy =
    judged.permission !== undefined ? `kafka:${judged.permission.id}` : (judged.expectedBy ?? '');
  return { ...judged, label: verdictLabel(judged), coveredBy };
}

/**
 * The label every report prints next to a kind.
 * @example verdictLabel(verdict) // "violates Kafka's guarantee"
 */
export function verdictLabel(verdict: Judged): string {
  if (verdict.permission !== undefined) {
    const { because, setting, source } = verdict.permission;
    const why = `${because} (${setting}; ${source})`;
    return `permitted by Kafka under this configuration, because ${why}`;
  }
  if (verdict.expectedBy === 'expect.anomalies') {
    return "violates Kafka's guarantee: expected, this configuration is known to break it";
  }
  if (verdict.expectedBy === 'expect.allowed') {
    return "violates Kafka's guarantee: accepted by the scenario's expect.allowed";
  }
  return "violates Kafka's guarantee";
}
