/**
 * Scripted expectations under swarm mode: each is kept only where the drawn parameters preserve
 * its premise, and the ones dropped are said, with why, on the first lines of the run. Today the
 * one premise-bound expectation is `expect.fenced: [X]`, which rests on X's scripted GC pause
 * outlasting its transaction.timeout.ms (the coordinator then aborts X's transaction with an
 * epoch bump, TransactionCoordinator's timeout abort, and X is fenced when it wakes) and on X
 * still being that same producer instance when it wakes: a crash or power loss of X restarts it,
 * and the new instance's initTransactions fences others instead of being fenced.
 */
import type { ProducerSettings, ScenarioConfig } from '../../scenarios';

/** The scenario with the expectations whose premise the draw kept, and what was dropped. */
export interface SwarmExpectations {
  readonly scenario: ScenarioConfig;
  /** One line per dropped expectation: what and why. */
  readonly dropped: readonly string[];
}

/** Kinds of the random nemesis that restart a client as a new producer instance. */
const RESTARTING_KINDS = ['crash', 'power-loss'];

function producerSettings(scenario: ScenarioConfig, name: string): ProducerSettings | null {
  const client = scenario.clients.find((candidate) => candidate.name === name);
  if (client === undefined || client.role === 'consumer') return null;
  return client.role === 'pipeline' ? client.settings.producer : client.settings;
}

/** Why `name` may no longer be fenced in `drawn`, or null when the premise holds. */
function fencedPremiseBroken(
  base: ScenarioConfig,
  drawn: ScenarioConfig,
  name: string,
): string | null {
  const before = producerSettings(base, name);
  const after = producerSettings(drawn, name);
  if (before === null || after === null) return null;
  for (const fault of base.faults) {
    if (fault.kind !== 'pause' || fault.target !== name) continue;
    if (fault.forMs <= before.transactionTimeoutMs) continue;
    if (fault.forMs <= after.transactionTimeoutMs) {
      return (
        `the drawn ${name}.transaction.timeout.ms=${after.transactionTimeoutMs} is no longer ` +
        `shorter than ${name}'s scripted ${fault.forMs} ms pause`
      );
    }
  }
  const nemesis = drawn.nemesis;
  if (nemesis !== null && nemesis.targets.includes(name)) {
    const restarting = nemesis.kinds.filter((kind) => RESTARTING_KINDS.includes(kind));
    if (restarting.length > 0) {
      return (
        `the swarm may ${restarting.join(' or ')} ${name}, and a restarted instance ` +
        'initializes again instead of being fenced'
      );
    }
  }
  return null;
}

/**
 * Keeps each scripted expectation of `base` whose premise `drawn` preserves.
 * @example swarmExpectations(base, drawn).dropped // ['expect.fenced A: the drawn ...']
 */
export function swarmExpectations(base: ScenarioConfig, drawn: ScenarioConfig): SwarmExpectations {
  const dropped: string[] = [];
  const fenced = base.expect.fenced.filter((name) => {
    const why = fencedPremiseBroken(base, drawn, name);
    if (why !== null) dropped.push(`expect.fenced ${name} dropped: ${why}`);
    return why === null;
  });
  return { scenario: { ...drawn, expect: { ...drawn.expect, fenced } }, dropped };
}
