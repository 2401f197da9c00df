/**
 * What the workload needs to know about each client: its Kafka settings and what its
 * application does (the resolved types of `sim/config`, which the scenario loader produces),
 * and the run phase it follows.
 */
export type {
  ClientSpec,
  PipelineSpec,
  PollsSpec,
  SendsSpec,
  TransactionsSpec,
} from '../config';

/** Shared by every client: the phase of the run, set by the runner. */
export interface WorkloadControl {
  /** Set when the workload phase ends: applications start no new operation. */
  stopping: boolean;
}
