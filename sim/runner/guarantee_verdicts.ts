/**
 * The verdict on each anomaly kind a run found: permitted by Kafka under this configuration
 * (with the permission's reason and source), or a violation of Kafka's guarantee, which the
 * scenario may still expect (`expect.anomalies`: a known-bad configuration must be caught) or
 * accept (`expect.allowed`: what the guarantee model cannot know). Every anomaly is judged, not
 * only the examples a report keeps: the checker counts them per (kind, classification,
 * partitions involved) before the example cap, and a kind is permitted only when each of those
 * groups is covered by a permission that names its classification (when it restricts them) and
 * reaches one of its partitions (when it is scoped to where its fault was).
 */
import {
  involvedPartitions,
  type AnomalyGroup,
  type AnomalyKind,
  type CheckResult,
} from '../checker';
import type { Expectations } from '../../scenarios';
import type { BugCause } from './bug_causes';
import type { Permission } from './kafka_guarantee';

/** The part of a permission a verdict carries. */
export type PermissionSummary = Pick<Permission, 'id' | 'setting' | 'because' | 'source'>;

/** The verdict on one anomaly kind of a run. */
export interface KindVerdict {
  readonly kind: AnomalyKind;
  /** Anomalies of the kind, before the example cap. */
  readonly count: number;
  readonly verdict: 'permitted' | 'violates';
  /** The permission that covers the kind (the first that covers some of it), when permitted. */
  readonly permission?: PermissionSummary;
  /** Further permissions needed to cover the rest of the kind's anomalies, when permitted. */
  readonly alsoPermittedBy?: readonly PermissionSummary[];
  /**
   * For a violation that some permission of the kind would have covered elsewhere: how many of
   * the kind's anomalies no permission covers, and where they are (`orders-1`), e.g. a lost
   * write on a partition the broker that lost power does not replicate.
   */
  readonly outsideScope?: { readonly count: number; readonly partitions: readonly string[] };
  /**
   * For a violation: the scenario's key that expects or accepts it, `bug-switch` when a
   * switched-on bug makes the kind and the scenario demands one of that bug's kinds (its
   * reproducer), or null.
   */
  readonly expectedBy: 'expect.anomalies' | 'bug-switch' | 'expect.allowed' | null;
  /**
   * For a violation of a kind a switched-on bug makes: that bug switch, by id and source; the
   * run expects it (`bug-switch`) only in the bug's reproducer.
   */
  readonly causedBy?: Pick<BugCause, 'id' | 'source'>;
  /** "permitted by Kafka under this configuration, because …" or "violates Kafka's guarantee". */
  readonly label: string;
  /** What covered the kind, for sweep counts: `kafka:<permission id>`, a scenario key, or none. */
  readonly coveredBy: string;
}

type Judged = Omit<KindVerdict, 'label' | 'coveredBy'>;

/** Whether `permission` covers the anomalies of `group`. */
export function covers(permission: Permission, group: Omit<AnomalyGroup, 'count'>): boolean {
  const { kind, classification, partitions } = group;
  if (!permission.kinds.includes(kind)) return false;
  const only = permission.classifications?.[kind];
  if (only !== undefined && (classification === undefined || !only.includes(classification))) {
    return false;
  }
  const { scope } = permission;
  // An anomaly that names no partition cannot be placed, so a scope cannot exclude it.
  if (scope === undefined || partitions.length === 0 || scope.everywhere.includes(kind)) {
    return true;
  }
  return partitions.some((involved) =>
    scope.partitions.some(
      (reached) => reached.topic === involved.topic && reached.partition === involved.partition,
    ),
  );
}

/**
 * The groups of `kind`, before the cap. A check result without groups (built by hand, or read
 * from an older report) is grouped from its examples; what the cap left out becomes groups
 * without a partition, by classification where the check counted them.
 */
function groupsOf(check: CheckResult, kind: AnomalyKind, total: number): AnomalyGroup[] {
  if (check.anomalyGroups !== undefined) {
    return check.anomalyGroups.filter((group) => group.kind === kind);
  }
  const examples = check.anomalies.filter((anomaly) => anomaly.kind === kind);
  const groups: AnomalyGroup[] = examples.map((anomaly) => ({
    kind,
    ...(anomaly.classification === undefined ? {} : { classification: anomaly.classification }),
    partitions: involvedPartitions(anomaly),
    count: 1,
  }));
  if (examples.length >= total) return groups;
  // The examples were capped: count the rest by classification where the check says.
  const classified = (check.classificationCounts ?? []).filter((count) => count.kind === kind);
  const shown = new Map<string, number>();
  for (const anomaly of examples) {
    const name = anomaly.classification ?? '';
    shown.set(name, (shown.get(name) ?? 0) + 1);
  }
  let rest = total - examples.length;
  for (const { classification, count } of classified) {
    const more = Math.min(rest, count - (shown.get(classification) ?? 0));
    if (more <= 0) continue;
    groups.push({ kind, classification, partitions: [], count: more });
    rest -= more;
  }
  if (rest > 0) groups.push({ kind, partitions: [], count: rest });
  return groups;
}

/** The permissions covering the groups, in order of first use, and the groups none covers. */
function permissionsFor(
  groups: readonly AnomalyGroup[],
  permissions: readonly Permission[],
): { readonly used: Permission[]; readonly uncovered: AnomalyGroup[] } {
  const used: Permission[] = [];
  const uncovered: AnomalyGroup[] = [];
  for (const group of groups) {
    const permission = permissions.find((candidate) => covers(candidate, group));
    if (permission === undefined) uncovered.push(group);
    else if (!used.includes(permission)) used.push(permission);
  }
  return { used, uncovered };
}

function summary({ id, setting, because, source }: Permission): PermissionSummary {
  return { id, setting, because, source };
}

/** Where the uncovered anomalies are, when a permission of the kind exists elsewhere. */
function outsideScopeOf(
  kind: AnomalyKind,
  uncovered: readonly AnomalyGroup[],
  permissions: readonly Permission[],
): KindVerdict['outsideScope'] {
  if (!permissions.some((permission) => permission.kinds.includes(kind))) return undefined;
  const names = new Set<string>();
  for (const group of uncovered) {
    for (const { topic, partition } of group.partitions) names.add(`${topic}-${partition}`);
  }
  const count = uncovered.reduce((sum, group) => sum + group.count, 0);
  return { count, partitions: [...names].sort() };
}

/**
 * What expects a violation of `kind`: the scenario's demand; the switched-on bug that makes it,
 * when the scenario is that bug's reproducer (it demands one of the bug's kinds in
 * `expect.anomalies`, so the bug's other symptoms come with it); or `allowed`. A bug switched on
 * in a file that demands none of its kinds (a safe scenario run with an old `--kafka-version`)
 * still fails on them, labelled with the bug.
 */
function expectationOf(
  kind: AnomalyKind,
  expect: Pick<Expectations, 'anomalies' | 'allowed'>,
  causedBy: BugCause | undefined,
): KindVerdict['expectedBy'] {
  if (expect.anomalies.includes(kind)) return 'expect.anomalies';
  const reproducer = causedBy?.kinds.some((made) => expect.anomalies.includes(made)) === true;
  if (reproducer) return 'bug-switch';
  return expect.allowed.includes(kind) ? 'expect.allowed' : null;
}

/**
 * One verdict per kind found, in the check's kind order. `causes` are the switched-on bugs
 * (`bugCauses`): a violation of a kind one of them makes names it and is expected.
 * @example judgeAnomalies(check, kafkaPermissions(input), scenario.expect)[0]?.verdict
 */
export function judgeAnomalies(
  check: CheckResult,
  permissions: readonly Permission[],
  expect: Pick<Expectations, 'anomalies' | 'allowed'>,
  causes: readonly BugCause[] = [],
): KindVerdict[] {
  return check.anomalyCounts.map(({ kind, count }) => {
    const { used, uncovered } = permissionsFor(groupsOf(check, kind, count), permissions);
    const [first, ...more] = used;
    if (first === undefined || uncovered.length > 0) {
      const outsideScope = outsideScopeOf(kind, uncovered, permissions);
      const cause = causes.find((candidate) => candidate.kinds.includes(kind));
      return labelled({
        kind,
        count,
        verdict: 'violates',
        ...(outsideScope === undefined ? {} : { outsideScope }),
        expectedBy: expectationOf(kind, expect, cause),
        ...(cause === undefined ? {} : { causedBy: { id: cause.id, source: cause.source } }),
      });
    }
    return labelled({
      kind,
      count,
      verdict: 'permitted',
      permission: summary(first),
      ...(more.length === 0 ? {} : { alsoPermittedBy: more.map(summary) }),
      expectedBy: null,
    });
  });
}

function labelled(judged: Judged): KindVerdict {
  const ids = [judged.permission, ...(judged.alsoPermittedBy ?? [])].flatMap((permission) =>
    permission === undefined ? [] : [`kafka:${permission.id}`],
  );
  const bug = judged.expectedBy === 'bug-switch' ? `bug:${judged.causedBy?.id ?? ''}` : null;
  const coveredBy = ids.length > 0 ? ids.join('+') : (bug ?? judged.expectedBy ?? '');
  return { ...judged, label: verdictLabel(judged), coveredBy };
}

/**
 * The label every report prints next to a kind.
 * @example verdictLabel(verdict) // "violates Kafka's guarantee"
 */
export function verdictLabel(verdict: Judged): string {
  if (verdict.permission !== undefined) {
    const reasons = [verdict.permission, ...(verdict.alsoPermittedBy ?? [])].map(
      ({ because, setting, source }) => `${because} (${setting}; ${source})`,
    );
    return `permitted by Kafka under this configuration, because ${reasons.join('; and ')}`;
  }
  const cause =
    verdict.causedBy === undefined
      ? ''
      : `caused by bug switch ${verdict.causedBy.id}, which this configuration turns on ` +
        `(${verdict.causedBy.source})`;
  if (verdict.expectedBy === 'expect.anomalies') {
    return (
      "violates Kafka's guarantee: expected, this configuration is known to break it" +
      (cause === '' ? '' : `; ${cause}`)
    );
  }
  if (verdict.expectedBy === 'bug-switch') {
    return `violates Kafka's guarantee: ${cause}; expected with the bug's other symptoms`;
  }
  if (verdict.expectedBy === 'expect.allowed') {
    return "violates Kafka's guarantee: accepted by the scenario's expect.allowed";
  }
  return cause === '' ? "violates Kafka's guarantee" : `violates Kafka's guarantee: ${cause}`;
}
