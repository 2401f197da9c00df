/**
 * The broker's side of the admin requests only the controller can answer, CreateTopics and
 * CreatePartitions: KIP-590 forwarding (ForwardingManager, EnvelopeRequest). The broker sends the
 * request on to the controller with the client and its correlation id, and relays the
 * controller's answer to that client. A request or answer lost on the way is not retried here:
 * the client's `request.timeout.ms` covers it.
 */
import type { ActorContext, NodeId } from '../../kernel';
import type { KafkaMessage } from '../protocol';
import { CONTROLLER_ID } from '../controller/controller';

type Ctx = ActorContext<KafkaMessage>;

/** Forwards or relays `message` when it is a topic admin request or answer; false otherwise. */
export function forwardTopicAdmin(message: KafkaMessage, source: NodeId, ctx: Ctx): boolean {
  switch (message.kind) {
    case 'CreateTopics':
    case 'CreatePartitions': {
      const forwardedFor = { client: source, correlationId: message.correlationId };
      ctx.send(CONTROLLER_ID as NodeId, { ...message, forwardedFor });
      return true;
    }
    case 'CreateTopicsResponse':
    case 'CreatePartitionsResponse': {
      const { forwardedFor, ...answer } = message;
      if (forwardedFor === undefined) return false;
      ctx.send(forwardedFor.client as NodeId, {
        ...answer,
        correlationId: forwardedFor.correlationId,
      });
      return true;
    }
    default:
      return false;
  }
}
