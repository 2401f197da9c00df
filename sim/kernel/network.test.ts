/**
 * Goal: a hold rule's held messages are bounded by HELD_MESSAGES_PER_RULE_MAX, and the bound
 * fails the run with a budget error instead of growing or dropping silently. Method: route
 * messages through one hold rule on a bare Network up to the bound (all held, none delivered),
 * then one more, which must throw BudgetExceededError naming the bound and the link.
 */
import { describe, expect, it } from 'vitest';
import { BudgetExceededError } from './budget';
import { nodeId } from './ids';
import { HELD_MESSAGES_PER_RULE_MAX, Network } from './network';
import { Rng } from './rng';

const A = nodeId('A');
const B = nodeId('B');

describe('held messages', () => {
  it('holds up to HELD_MESSAGES_PER_RULE_MAX, then fails the run with a budget error', () => {
    const network = new Network({ delayUsMin: 500, delayUsMax: 2000 }, new Rng('1'));
    network.addRule({ source: A, target: B, effect: { type: 'hold' } });
    const message = { kind: 'M' };
    let delivered = 0;
    for (let n = 0; n < HELD_MESSAGES_PER_RULE_MAX; n++) {
      delivered += network.route(A, B, message, n).length;
    }
    expect(delivered).toBe(0);
    expect(network.route(B, A, message, 0)).toHaveLength(1);
    const oneMore = (): unknown => network.route(A, B, message, HELD_MESSAGES_PER_RULE_MAX);
    expect(oneMore).toThrow(BudgetExceededError);
    expect(oneMore).toThrow(
      'Collection bound exceeded: messages held by one link rule past 1000000 ' +
        '(HELD_MESSAGES_PER_RULE_MAX)',
    );
  });
});
