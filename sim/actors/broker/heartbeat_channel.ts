/**
 * A broker's heartbeat channel to the controller: BrokerLifecycleManager sends its
 * BrokerHeartbeat through a NodeToControllerChannelManager whose request timeout is
 * min(controller.socket.timeout.ms, broker.session.timeout.ms / 2) (BrokerServer, KAFKA-14392).
 * A heartbeat unanswered for that long times out in its NetworkClient, which closes the
 * connection (handleTimedOutRequests -> processTimeoutDisconnection) and connects anew for the
 * next one. The model checks the timeout when a heartbeat is due (every
 * `broker.heartbeat.interval.ms`), so the reconnect comes with the first heartbeat after it.
 * The controller's metadata changes come back on this connection in the model, so a delay that
 * stalls it stalls them only until the broker gives up on the old socket, as Kafka's metadata
 * fetches do on their own request timeout.
 */

/** `controller.socket.timeout.ms` default (KafkaConfig). */
const CONTROLLER_SOCKET_TIMEOUT_MS = 30_000;

/** When the oldest unanswered heartbeat went out, and when it times out. */
export class HeartbeatChannel {
  /** Virtual time of the oldest heartbeat not yet answered; null when all were answered. */
  private oldestUnansweredUs: number | null = null;
  private readonly requestTimeoutUs: number;

  /** `brokerSessionTimeoutMs`: `broker.session.timeout.ms`, milliseconds. */
  constructor(brokerSessionTimeoutMs: number) {
    this.requestTimeoutUs =
      Math.min(CONTROLLER_SOCKET_TIMEOUT_MS, brokerSessionTimeoutMs / 2) * 1000;
  }

  /**
   * A heartbeat goes out at `nowUs`. True when the oldest unanswered one has timed out: the
   * caller closes the connection first, and the timeout counts again from this heartbeat.
   */
  sending(nowUs: number): boolean {
    const oldest = this.oldestUnansweredUs;
    const timedOut = oldest !== null && nowUs - oldest >= this.requestTimeoutUs;
    if (oldest === null || timedOut) this.oldestUnansweredUs = nowUs;
    return timedOut;
  }

  /** The controller answered: the channel is alive. */
  answered(): void {
    this.oldestUnansweredUs = null;
  }

  /** A restart opens a fresh channel. */
  reset(): void {
    this.oldestUnansweredUs = null;
  }
}
