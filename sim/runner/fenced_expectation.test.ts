/**
 * Goal: prove `expect.fenced` both ways where the transaction log forgot the fence. Method: a
 * hand-built oracle and history for one transactional.id; the coordinator's final entry is
 * below or at the highest epoch it granted, with or without a truncation of the id's
 * `__transaction_state` partition, in and out of swarm mode.
 */
import { describe, expect, it } from 'vitest';
import { transactionStatePartitionFor } from '../actors';
import type { CheckResult } from '../checker';
import type { History, Oracle, OracleTruncation } from '../history';
import { loadScenario } from '../../scenarios';
import { fencedExpectation, type FencedExpectationInput } from './fenced_expectation';
import type { SwarmParameters } from './swarm';

const scenario = loadScenario('scenarios/zombie-fencing.yaml');
const stateLog = transactionStatePartitionFor('orders-tx', 50);

const history: History = [
  {
    timeUs: 0,
    type: 'invoke',
    process: 'A#0',
    client: 'A',
    f: 'init',
    value: { transactionalId: 'orders-tx' },
    index: 0,
  },
];

const swarm: SwarmParameters = {
  kinds: ['crash'],
  intervalMs: 1000,
  durationMsMin: 1000,
  durationMsMax: 2000,
  timeoutAware: false,
  probabilityPpm: 0,
  configs: {},
};

function truncation(partition: number, removed: number): OracleTruncation {
  const record = {
    offset: 3,
    value: null,
    producerId: -1,
    producerEpoch: -1,
    sequence: -1,
    isTransactional: false,
    appendUs: 10,
  };
  return {
    timeUs: 36_000_000,
    topic: '__transaction_state',
    partition,
    broker: 'b1',
    toOffset: 3,
    reason: 'power-loss',
    removed: Array.from({ length: removed }, () => record),
  };
}

function input(options: {
  heldEpoch: number;
  truncations: OracleTruncation[];
  swarm?: SwarmParameters;
}): FencedExpectationInput {
  const grant = (producerEpoch: number) => ({
    timeUs: producerEpoch,
    transactionalId: 'orders-tx',
    producerId: 1000,
    producerEpoch,
    reason: 'init' as const,
  });
  const oracle: Oracle = {
    partitions: [],
    faults: [],
    invariantViolations: [],
    epochGrants: [grant(0), grant(1), grant(4)],
    truncations: options.truncations,
    coordinatorTransactions: [
      {
        transactionalId: 'orders-tx',
        coordinator: 'b1',
        producerId: 1000,
        producerEpoch: options.heldEpoch,
        state: 'PrepareAbort',
        partitions: [],
      },
    ],
  };
  const check = { anomalies: [] } as unknown as CheckResult;
  return {
    scenario,
    check,
    history,
    oracle,
    ...(options.swarm === undefined ? {} : { swarm: options.swarm }),
  };
}

const judged = { verdicts: [], fenced: [] };

describe('expect.fenced when the transaction log forgot the fence', () => {
  it('is dropped under swarm when the state log lost records and the epoch went back', () => {
    const result = fencedExpectation(
      input({ heldEpoch: 1, truncations: [truncation(stateLog, 1)], swarm }),
      judged,
      'A',
    );
    expect(result.met).toBe(true);
    expect(result.detail).toBe(
      `dropped under swarm: __transaction_state-${stateLog} lost records (power-loss ` +
        'truncation on b1 at 36 s), so coordinator b1 holds orders-tx at producerEpoch 1, ' +
        'below the 4 it granted: the fence of A was lost with the transaction log',
    );
  });

  it('still fails when the coordinator kept the newest epoch it granted', () => {
    const result = fencedExpectation(
      input({ heldEpoch: 4, truncations: [truncation(stateLog, 1)], swarm }),
      judged,
      'A',
    );
    expect(result).toMatchObject({ met: false, detail: 'A was never fenced' });
  });

  it('still fails when only another state log partition, or nothing, was truncated', () => {
    for (const truncations of [[truncation(stateLog + 1, 1)], [truncation(stateLog, 0)], []]) {
      const result = fencedExpectation(input({ heldEpoch: 1, truncations, swarm }), judged, 'A');
      expect(result.met).toBe(false);
    }
  });

  it('still fails outside swarm mode: a scripted scenario states its own premise', () => {
    const result = fencedExpectation(
      input({ heldEpoch: 1, truncations: [truncation(stateLog, 1)] }),
      judged,
      'A',
    );
    expect(result.met).toBe(false);
  });

  it('is met by a fencing error whatever the log did', () => {
    const result = fencedExpectation(
      input({ heldEpoch: 4, truncations: [] }),
      { verdicts: [], fenced: ['A'] },
      'A',
    );
    expect(result).toMatchObject({ met: true, detail: 'A received a fencing error' });
  });
});
