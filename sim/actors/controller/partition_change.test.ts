import { describe, expect, it } from 'vitest';
import type { PartitionState } from '../protocol';
import { buildPartitionChange, type ElectionRules } from './partition_change';

const REPLICAS = ['b1', 'b2', 'b3'];

const state = (overrides: Partial<PartitionState> = {}): PartitionState => ({
  topic: 't',
  partition: 0,
  replicas: REPLICAS,
  leader: 'b1',
  leaderEpoch: 4,
  partitionEpoch: 10,
  isr: REPLICAS,
  elr: [],
  lastKnownElr: [],
  ...overrides,
});

/** ELR on, min ISR 2, unclean election off, every replica but `down` acceptable. */
const rules = (down: readonly string[] = [], overrides: Partial<ElectionRules> = {}) => ({
  eligibleLeaderReplicasEnabled: true,
  minIsr: 2,
  uncleanLeaderElectionEnable: false,
  isAcceptableLeader: (replica: string) => !down.includes(replica),
  ...overrides,
});

describe('buildPartitionChange without ELR (before KIP-966)', () => {
  const off = (down: readonly string[] = []) =>
    rules(down, { eligibleLeaderReplicasEnabled: false });

  it('never removes the last ISR member; the partition goes offline', () => {
    const result = buildPartitionChange(state({ isr: ['b1'] }), { targetIsr: [] }, off(['b1']));
    expect(result?.state).toMatchObject({ leader: null, isr: ['b1'], elr: [], leaderEpoch: 5 });
    expect(result?.election).toBe('offline');
  });

  it('re-elects the only ISR member when it comes back, whatever its log', () => {
    const offline = state({ leader: null, isr: ['b1'] });
    const result = buildPartitionChange(offline, { targetIsr: ['b1'] }, off());
    expect(result?.state).toMatchObject({ leader: 'b1', isr: ['b1'], leaderEpoch: 5 });
    expect(result?.election).toBe('clean');
  });

  it('keeps no ELR when the ISR shrinks below min ISR', () => {
    const result = buildPartitionChange(state({ isr: ['b1', 'b2'] }), { targetIsr: ['b1'] }, off());
    expect(result?.state).toMatchObject({
      isr: ['b1'],
      elr: [],
      leaderEpoch: 4,
      partitionEpoch: 11,
    });
  });
});

describe('buildPartitionChange with ELR (KIP-966)', () => {
  it('moves members leaving an ISR below min ISR into the ELR', () => {
    const result = buildPartitionChange(
      state({ isr: ['b1', 'b2'] }),
      { targetIsr: ['b1'] },
      rules(),
    );
    expect(result?.state).toMatchObject({ isr: ['b1'], elr: ['b2'], lastKnownElr: [] });
    expect(result?.election).toBeNull();
  });

  it('keeps the ELR empty while the ISR holds min ISR members', () => {
    const result = buildPartitionChange(state(), { targetIsr: ['b1', 'b2'] }, rules());
    expect(result?.state).toMatchObject({ isr: ['b1', 'b2'], elr: [] });
  });

  it('clears the ELR once the ISR is back at min ISR', () => {
    const below = state({ isr: ['b1'], elr: ['b2'] });
    const result = buildPartitionChange(below, { targetIsr: ['b1', 'b3'] }, rules());
    expect(result?.state).toMatchObject({ isr: ['b1', 'b3'], elr: [] });
  });

  it('empties the ISR when its last member is fenced and elects from the ELR', () => {
    const last = state({ isr: ['b1'], elr: ['b2'] });
    const result = buildPartitionChange(last, { targetIsr: [] }, rules(['b1']));
    expect(result?.state).toMatchObject({
      leader: 'b2',
      isr: ['b2'],
      elr: ['b1'],
      lastKnownElr: [],
      leaderEpoch: 5,
      partitionEpoch: 11,
    });
    expect(result?.election).toBe('elr');
  });

  it('keeps an uncleanly shut down replica out of the ELR', () => {
    const led = state({ leader: 'b2', isr: ['b2'], elr: ['b1'] });
    const result = buildPartitionChange(
      led,
      { targetIsr: ['b2'], uncleanShutdownReplicas: ['b1'] },
      rules(['b1']),
    );
    expect(result?.state).toMatchObject({ leader: 'b2', isr: ['b2'], elr: [], leaderEpoch: 4 });
  });

  it('records the last leader when the ISR empties with no ELR member to elect', () => {
    const last = state({ isr: ['b1'], elr: ['b2'] });
    const result = buildPartitionChange(last, { targetIsr: [] }, rules(['b1', 'b2']));
    expect(result?.state).toMatchObject({
      leader: null,
      isr: [],
      elr: ['b1', 'b2'],
      lastKnownElr: ['b1'],
    });
    expect(result?.election).toBe('offline');
  });

  it('elects an unfenced ELR member of an offline partition when it returns', () => {
    const offline = state({ leader: null, isr: [], elr: ['b1', 'b2'], lastKnownElr: ['b1'] });
    const result = buildPartitionChange(offline, { targetIsr: [] }, rules(['b1']));
    expect(result?.state).toMatchObject({
      leader: 'b2',
      isr: ['b2'],
      elr: ['b1'],
      lastKnownElr: [],
    });
  });

  it('elects the last known leader only when ISR and ELR are empty and it is unfenced', () => {
    const empty = state({ leader: null, isr: [], elr: [], lastKnownElr: ['b1'] });
    const result = buildPartitionChange(empty, { targetIsr: [] }, rules());
    expect(result?.state).toMatchObject({ leader: 'b1', isr: ['b1'], elr: [], lastKnownElr: [] });
    expect(result?.election).toBe('last-known-leader');
    // KAFKA-19522: a fenced last known leader is not elected.
    expect(buildPartitionChange(empty, { targetIsr: [] }, rules(['b1']))).toBeNull();
  });

  it('clears the ELR on an unclean election', () => {
    const empty = state({ leader: null, isr: [], elr: ['b2'] });
    const unclean = rules(['b2'], { uncleanLeaderElectionEnable: true });
    const result = buildPartitionChange(empty, { targetIsr: [] }, unclean);
    expect(result?.state).toMatchObject({ leader: 'b1', isr: ['b1'], elr: [] });
    expect(result?.election).toBe('unclean');
  });

  it('returns null for a change that changes nothing', () => {
    expect(buildPartitionChange(state(), { targetIsr: REPLICAS }, rules())).toBeNull();
  });
});
