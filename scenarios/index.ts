/**
 * The scenarios folder's public API: load and list scenario files, the typed errors they throw,
 * and the resolved config types the runner consumes. Other folders import from here only.
 */
export { listScenarioFiles, loadScenario, parseScenario } from './loader';
export { ScenarioInvalidError, ScenarioNotFoundError } from './errors';
export type * from './scenario_types';
export { faultEntryOf, scenarioMappingOf, writeScenarioYaml } from './writer';
export { groupIdsOf, scenarioTimeoutsMs } from './fault_resolve';
export type { LoadOptions } from './loader';
export {
  BUG_IDS,
  BUG_ROWS,
  KAFKA_VERSIONS,
  NEWEST_KAFKA_VERSION,
  bugsOf,
  compareVersions,
  defaultsOf,
  isModelledVersion,
  type BugId,
  type BugRow,
} from './kafka_versions';
export { versionDifferences, type VersionDifference } from './version_differences';
export {
  CLIENT_FLAVOURS,
  LIBRDKAFKA_VERSIONS,
  NEWEST_LIBRDKAFKA_VERSION,
  clientBugOf,
  type ClientFlavour,
} from './client_versions';
export { withClientFlavour, withLibrdkafkaClients } from './client_resolve';
