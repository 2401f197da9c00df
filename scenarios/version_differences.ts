/**
 * What a scenario changes relative to its `kafka.version`: every bug switch and version-dependent
 * setting whose resolved value is not the one that release had. Reports print these next to the
 * version, so a run of "Kafka 4.1 with KAFKA-16352 on" says so.
 */
import { BUG_ROWS, bugsOf, defaultsOf } from './kafka_versions';
import type { ScenarioConfig } from './scenario_types';

/** One switch that differs from the release's value. */
export interface VersionDifference {
  /** The key as written in a scenario file: `bugs.KAFKA-16352`, `protocol.transaction.version`. */
  readonly key: string;
  /** The scenario's value. */
  readonly value: boolean | number;
  /** The value `kafka.version` has. */
  readonly versionValue: boolean | number;
}

/**
 * The switches of `scenario` that differ from its `kafkaVersion`, bugs first in table order.
 * @example versionDifferences(loadScenario('scenarios/known-bugs/kafka-16352.yaml'))
 * // [{ key: 'bugs.KAFKA-16352', value: true, versionValue: false }]
 */
export function versionDifferences(
  scenario: Pick<
    ScenarioConfig,
    'kafkaVersion' | 'bugs' | 'protocol' | 'broker' | 'clientVersionBugs'
  >,
): VersionDifference[] {
  const differences: VersionDifference[] = [];
  const bugs = bugsOf(scenario.kafkaVersion);
  for (const row of BUG_ROWS) {
    const value = scenario.bugs[row.id];
    // A client bug is compared with the clients' versions (client.version), not kafka.version.
    const versionValue = scenario.clientVersionBugs?.[row.id] ?? bugs[row.id];
    if (value !== versionValue) differences.push({ key: `bugs.${row.id}`, value, versionValue });
  }
  const defaults = defaultsOf(scenario.kafkaVersion);
  const transactionVersion = scenario.protocol.transactionVersion;
  if (transactionVersion !== defaults.transactionVersion) {
    const versionValue = defaults.transactionVersion;
    differences.push({
      key: 'protocol.transaction.version',
      value: transactionVersion,
      versionValue,
    });
  }
  const verification = scenario.broker.transactionPartitionVerificationEnable;
  if (verification !== defaults.transactionPartitionVerificationEnable) {
    differences.push({
      key: 'broker.transaction.partition.verification.enable',
      value: verification,
      versionValue: defaults.transactionPartitionVerificationEnable,
    });
  }
  return differences;
}
