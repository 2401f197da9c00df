/**
 * Goal: the heartbeat channel times out as Kafka's does (min(controller.socket.timeout.ms,
 * broker.session.timeout.ms / 2), KAFKA-14392), and only when the controller stopped answering.
 * Method: feed it send and answer times and read when it asks for the connection to be closed.
 */
import { describe, expect, it } from 'vitest';
import { HeartbeatChannel } from './heartbeat_channel';

const S = 1_000_000;

describe('HeartbeatChannel', () => {
  it('never closes while every heartbeat is answered', () => {
    const channel = new HeartbeatChannel(9000);
    for (let t = 0; t < 60; t += 2) {
      expect(channel.sending(t * S)).toBe(false);
      channel.answered();
    }
  });

  it('closes at broker.session.timeout.ms / 2 without an answer, then counts again', () => {
    const channel = new HeartbeatChannel(9000);
    expect(channel.sending(0)).toBe(false);
    expect(channel.sending(2 * S)).toBe(false);
    expect(channel.sending(4 * S)).toBe(false);
    expect(channel.sending(4.5 * S)).toBe(true); // 4.5 s after the first unanswered one
    expect(channel.sending(6 * S)).toBe(false); // counted from the heartbeat that closed it
    expect(channel.sending(9 * S)).toBe(true);
  });

  it('is capped by controller.socket.timeout.ms (30 s) for a long session timeout', () => {
    const channel = new HeartbeatChannel(120_000);
    expect(channel.sending(0)).toBe(false);
    expect(channel.sending(29.999999 * S)).toBe(false);
    expect(channel.sending(30 * S)).toBe(true);
  });

  it('starts fresh after a restart', () => {
    const channel = new HeartbeatChannel(9000);
    channel.sending(0);
    channel.reset();
    expect(channel.sending(5 * S)).toBe(false);
  });
});
