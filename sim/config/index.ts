/**
 * The leaf of the scenario language, imported by `scenarios/`, `faults/` and `sim/workload/`
 * and importing nothing of theirs: the building blocks of the schema that the loader and every
 * fault kind's module build their entries from, and the resolved client and workload types the
 * loader produces and the workload runs.
 */
export {
  boolean,
  integer,
  list,
  message,
  ms,
  oneOf,
  positive,
  section,
  text,
  type ErrorParam,
} from './schema_helpers';
export { JAVA_INT_MAX, LIMITS } from './limits';
export type {
  ClientSpec,
  PipelineSpec,
  PollsSpec,
  SendsSpec,
  TransactionsSpec,
} from './client_specs';
