/**
 * A restarted broker's registration with the controller. Kafka's broker serves nothing and takes
 * no role until the controller has registered it and it has caught up: BrokerServer.startup waits
 * on BrokerLifecycleManager's initialCatchUpFuture before it enables request processing, and the
 * registration fences the old incarnation first (ReplicationControlManager.handleBrokerFenced).
 * Metadata that reaches it earlier, such as a change published while the controller still
 * counted it alive, would make it lead again in the leader epoch it led before the crash, on a
 * log that may have lost its unflushed tail.
 */
import type { PartitionChangeNotice } from '../protocol';

/** Whether the broker is registering, and which controller answer ends it. */
export class BrokerRegistration {
  private registering = false;
  /** The correlationId of the first heartbeat sent since the last restart. */
  private from = 0;

  /** At each start: after a restart the broker registers anew from heartbeat `nextHeartbeatId`. */
  started(restarted: boolean, nextHeartbeatId: number): void {
    this.registering = restarted;
    this.from = nextHeartbeatId;
  }

  /** The `starting` flag of the next BrokerHeartbeat: set until the registration is answered. */
  get starting(): boolean {
    return this.registering;
  }

  /**
   * Whether the broker may apply `notice`: always once registered; before that only the full
   * state answering one of its registration heartbeats, which ends the registration.
   */
  admits(notice: PartitionChangeNotice): boolean {
    if (this.registering && (notice.registrationOf ?? -1) < this.from) return false;
    this.registering = false;
    return true;
  }
}
