/**
 * What a known-bug pair must share: the broker settings a scenario file sets, without those
 * whose defaults follow `kafka.version` (a reproducer and its fixed counterpart may name two
 * releases): `inter.broker.protocol.version` (the release itself) and
 * `offsets.retention.minutes` (KIP-186: 1440 before 2.0, 10080 from it).
 */
import type { ScenarioConfig } from '../../scenarios';

type VersionFollowing = 'interBrokerProtocolVersion' | 'offsetsRetentionMinutes';

/**
 * `broker` without the settings whose defaults follow `kafka.version`.
 * @example expect(brokerApartFromVersion(good.broker)).toEqual(brokerApartFromVersion(bad.broker))
 */
export function brokerApartFromVersion(
  broker: ScenarioConfig['broker'],
): Omit<ScenarioConfig['broker'], VersionFollowing> {
  const { interBrokerProtocolVersion: _ibp, offsetsRetentionMinutes: _retention, ...rest } = broker;
  return rest;
}
