/**
 * Goal: the model's bounds derive from the scenario limits they claim, docs/scenarios.md lists
 * every bound with its maximum, and a run that passes a bound ends `budget-exceeded` with the
 * collection and the constant named. Method: compare the basis with sim/config/limits.ts, read
 * the docs table, and run one short bundled scenario with one bound lowered to 0 (the per-bound
 * runs are in collection_bounds.sweep.test.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BOUND_BASIS, COLLECTION_BOUNDS } from '../../sim/actors';
import { LIMITS } from '../../sim/config';
import { KERNEL_BOUNDS } from '../../sim/kernel';
import { runScenario } from '../../sim/runner';
import { loadScenario } from '../../scenarios';
import { withLoweredBound } from './lowered_bound';

describe('collection bounds', () => {
  it('derive from the scenario limits', () => {
    expect(BOUND_BASIS).toMatchObject({
      brokers: LIMITS.brokers,
      clients: LIMITS.clients,
      partitionsTotal: LIMITS.partitionsTotal,
      internalTopicPartitions: LIMITS.internalTopicPartitions,
    });
    expect(COLLECTION_BOUNDS.replicas.max).toBe(LIMITS.partitionsTotal);
    expect(COLLECTION_BOUNDS.followers.max).toBe(LIMITS.brokers);
  });

  it('are all listed in docs/scenarios.md with their maximum, each name once', () => {
    const docs = readFileSync('docs/scenarios.md', 'utf8').replace(/ +/g, ' ');
    const bounds = [...Object.values(KERNEL_BOUNDS), ...Object.values(COLLECTION_BOUNDS)];
    for (const bound of bounds) {
      expect(docs).toContain(`| \`${bound.name}\` | ${bound.collection} | ${bound.max} |`);
    }
    expect(new Set(bounds.map((bound) => bound.name)).size).toBe(bounds.length);
  });

  it('end a run that passes one as budget-exceeded, naming the collection', () => {
    const scenario = loadScenario('scenarios/eos-pipeline.yaml');
    const { report } = withLoweredBound(COLLECTION_BOUNDS.leaderTerms, 0, () =>
      runScenario(scenario, { seed: '1', messageLog: false }),
    );
    expect(report.outcome).toBe('budget-exceeded');
    expect(report.error).toBe(
      'Collection bound exceeded: leader terms of one replica past 0 ' +
        '(LEADER_TERMS_PER_REPLICA_MAX)',
    );
  });
});
