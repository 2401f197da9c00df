/**
 * The schema of `faults:` (scripted faults) and `nemesis:` (random faults) in a scenario file.
 * Every fault has a `kind`; the other keys depend on it, and each mapping rejects keys it does
 * not know. Node names are checked against the scenario by the cross-key rules
 * (`nemesis_rules.ts`), which also resolve nothing: references such as `leader:orders-0` are
 * resolved when the fault starts. Fault kinds and their fault models: docs/scenarios.md.
 */
import { z } from 'zod';
import { KAFKA_MESSAGE_KINDS } from '../sim/actors/protocol/message_kinds';
import { boolean, integer, list, message, oneOf, positive, section, text } from './schema_helpers';

/** Keys every scheduled fault has. */
const timing = { 'at.ms': integer({ min: 0 }), 'for.ms': positive() };
/** A fault that may last until the heal phase. */
const openTiming = { 'at.ms': integer({ min: 0 }), 'for.ms': positive().optional() };

/** Keys of the link faults: which messages on which link. */
const link = {
  ...timing,
  from: text().optional(),
  to: text().optional(),
  messages: list(oneOf(KAFKA_MESSAGE_KINDS), { empty: true }).default([]),
  count: positive().optional(),
};

/** A probability in (0, 1], at least 0.000001. */
export const probability = z
  .number(message('must be a number'))
  .min(0.000001, message('must be a number > 0 and <= 1, at least 0.000001'))
  .max(1, message('must be a number > 0 and <= 1'));

const crashMode = oneOf(['process', 'power-loss']).default('process');
const direction = oneOf(['both', 'one-way']).default('both');

/** Every scripted fault kind, in the order the docs list them. */
export const FAULT_KINDS = [
  'pause',
  'crash',
  'power-loss',
  'drop',
  'duplicate',
  'delay',
  'hold',
  'partition',
  'isolate',
  'split',
  'bridge',
  'clock-skew',
  'unclean-election',
  'coordinator-failover',
  'operator',
] as const;

/** The KIP-664 operator actions (`kafka-transactions.sh`) a scenario can run. */
export const OPERATOR_ACTIONS = ['describe-producers', 'find-hanging', 'abort'] as const;

/** The schema of one entry of `faults:`. */
export const faultSchema = z.discriminatedUnion(
  'kind',
  [
    section({ kind: z.literal('pause'), target: text(), ...timing }),
    section({ kind: z.literal('crash'), target: text(), ...openTiming, mode: crashMode }),
    section({ kind: z.literal('power-loss'), target: text(), ...openTiming }),
    section({ kind: z.literal('drop'), ...link, probability: probability.default(1) }),
    section({ kind: z.literal('duplicate'), ...link, probability: probability.default(1) }),
    section({ kind: z.literal('delay'), ...link, 'delay.ms': positive() }),
    section({ kind: z.literal('hold'), ...link }),
    section({
      kind: z.literal('partition'),
      nodes: list(text(), { empty: false }),
      between: list(text(), { empty: false }).optional(),
      direction,
      ...timing,
    }),
    section({ kind: z.literal('isolate'), target: text(), direction, ...timing }),
    section({
      kind: z.literal('split'),
      minority: list(text(), { empty: false }).optional(),
      ...timing,
    }),
    section({ kind: z.literal('bridge'), bridge: text().optional(), ...timing }),
    section({
      kind: z.literal('clock-skew'),
      target: text(),
      'skew.ms': z
        .int(message('must be an integer other than 0'))
        .refine((skew) => skew !== 0, message('must be an integer other than 0')),
      ...openTiming,
    }),
    section({ kind: z.literal('unclean-election'), partition: text(), 'at.ms': timing['at.ms'] }),
    section({
      kind: z.literal('coordinator-failover'),
      'transactional.id': text().optional(),
      'group.id': text().optional(),
      ...openTiming,
      mode: crashMode,
    }),
    section({
      kind: z.literal('operator'),
      action: oneOf(OPERATOR_ACTIONS),
      topic: text(),
      partition: integer({ min: 0 }).optional(),
      'start.offset': integer({ min: 0 }).optional(),
      'max.transaction.timeout.ms': positive().default(900000),
      'at.ms': timing['at.ms'],
    }),
  ],
  {
    error: (issue) => {
      const input = issue.input;
      if (typeof input !== 'object' || input === null) return 'must be a mapping';
      return 'kind' in input ? `must be one of ${FAULT_KINDS.join(', ')}` : 'is required';
    },
  },
);

/** The kinds `nemesis.kinds` accepts. */
export const NEMESIS_KINDS = [
  'crash',
  'power-loss',
  'pause',
  'partition',
  'one-way',
  'split',
  'bridge',
  'drop',
  'duplicate',
  'delay',
  'hold',
  'clock-skew',
  'unclean-election',
  'coordinator-failover',
] as const;

/** The schema of `nemesis:`. */
export const nemesisSchema = section({
  kinds: list(oneOf(NEMESIS_KINDS), { empty: false }),
  targets: list(text(), { empty: false }).optional(),
  'start.ms': integer({ min: 0 }).default(0),
  'stop.ms': positive().optional(),
  'interval.ms': positive(),
  'duration.ms.min': positive(),
  'duration.ms.max': positive(),
  'timeout.aware': boolean().default(false),
  probability: probability.default(0.1),
});
