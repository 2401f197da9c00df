/**
 * The invariant the producer's data path relies on, asserted where it relies on it; it
 * throws the kernel's InvariantError naming the invariant (a model bug, exit 70 with the seed).
 */
import { invariant } from '../../kernel';

/**
 * Requests in flight to one broker stay within `max.in.flight.requests.per.connection`
 * (NetworkClient.canSendRequest); idempotent ordering relies on at most 5.
 */
export function assertInFlightWithin(
  inFlight: number,
  config: { readonly maxInFlightRequestsPerConnection: number },
): void {
  invariant(
    inFlight <= config.maxInFlightRequestsPerConnection,
    'in-flight requests <= max.in.flight.requests.per.connection',
    () => `${inFlight} in flight, at most ${config.maxInFlightRequestsPerConnection}`,
  );
}
