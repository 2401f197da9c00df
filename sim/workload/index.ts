/** The workload: client applications that drive the Kafka clients and write the history. */
export { ClientActor, FinalReaderActor, type ClientDeps } from './client_actor';
export type {
  ClientSpec,
  PipelineSpec,
  PollsSpec,
  SendsSpec,
  TransactionsSpec,
  WorkloadControl,
} from './workload_types';
export { OperatorActor, OPERATOR_NODE, type OperatorAction } from './operator_actor';
