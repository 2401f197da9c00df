/**
 * Goal: pin the report's Kafka line: the release alone, or each switch set otherwise with the
 * release's value and whether the run reached it (a bug switch the run never consulted cannot
 * have changed it). Method: kafkaVersionText on hand-built report parts.
 */
import { describe, expect, it } from 'vitest';
import { kafkaVersionText } from './kafka_version_text';

describe('kafkaVersionText', () => {
  const difference = { key: 'bugs.KAFKA-16352', value: true, versionValue: false };

  it('prints the release alone when nothing differs', () => {
    expect(kafkaVersionText({ version: '4.5', differences: [], switchesReached: [] })).toBe('4.5');
  });

  it('says whether the run reached each differing bug switch', () => {
    const reached = { version: '3.8', differences: [difference], switchesReached: ['KAFKA-16352'] };
    expect(kafkaVersionText(reached)).toBe(
      '3.8; differs: bugs.KAFKA-16352 = true (3.8 has false; reached)',
    );
    expect(kafkaVersionText({ ...reached, switchesReached: ['KAFKA-6119'] })).toBe(
      '3.8; differs: bugs.KAFKA-16352 = true (3.8 has false; never reached)',
    );
  });

  it('says nothing of reach for a setting that is not a bug switch', () => {
    const setting = { key: 'protocol.transaction.version', value: 0, versionValue: 2 };
    expect(kafkaVersionText({ version: '4.5', differences: [setting], switchesReached: [] })).toBe(
      '4.5; differs: protocol.transaction.version = 0 (4.5 has 2)',
    );
  });
});
