/**
 * Goal: a network partition stalls the bytes of open connections as TCP does (they arrive in
 * order after the heal), unless a timeout closes the connection first, which loses them.
 * Method: two small scenarios through `runScenario`, seed 1, exact times from the event log.
 *
 * 1. A follower (b2) cut off from its leader (b1) for 1.4 s while a producer writes. Its fetch
 *    in flight is held and answered right after the heal: b2 fetches again at 6.4 s and the ISR
 *    never shrinks. When partitions dropped every message (before this model), the fetch was
 *    lost, b2 waited for `replica.socket.timeout.ms` (30 s): the leader shrank the ISR to
 *    [b1, b3] at 15.0 s and b2 fetched again only at 35.9 s (AlterPartition at 15.0 s and 35.9 s).
 * 2. The producer cut off from the leader for 8 s with `request.timeout.ms` 3000: each attempt
 *    times out, the producer closes the connection (NetworkClient.handleTimedOutRequests) and
 *    retries; the closed attempts never reach b1, only the one open at the heal does. Without
 *    the close, the held earlier attempt would arrive too (two Produce at the heal).
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../scenarios';
import { runScenario } from '../../sim/runner';

function scenario(options: { name: string; producer: string; fault: string; durationMs: number }) {
  return `name: ${options.name}
cluster:
  brokers: 3
  topics:
    - name: events
      partitions: 1
      replication.factor: 3
broker:
  min.insync.replicas: 2
  replica.lag.time.max.ms: 10000
clients:
  - name: P
    role: producer
    config:
      enable.idempotence: true
      acks: all
      # The times below are pinned for records sent the moment send() is called.
      linger.ms: 0
${options.producer}faults:
${options.fault}expect:
  anomalies: []
run:
  duration.ms: ${options.durationMs}
  heal.ms: 40000
  liveness.ms: 40000
`;
}

function run(text: string) {
  const result = runScenario(parseScenario(text, 'tcp.yaml'), { seed: '1', recordEventLog: true });
  const times = (link: string): number[] =>
    result.executedEvents
      .filter((line) => line.includes(` ${link} `))
      .map((line) => Number(/ t=(\d+)us /.exec(line)?.[1]));
  return { result, times };
}

describe('a partition holds the bytes of open connections (TCP)', () => {
  it('a follower cut off for 1.4 s is answered after the heal; the ISR never shrinks', () => {
    const { result, times } = run(
      scenario({
        name: 'follower-partition',
        producer: `    workload:
      topics: [events]
      sends: 150
      send.interval.ms: 100
`,
        fault: `  - kind: partition
    nodes: [b2]
    between: [b1]
    at.ms: 5000
    for.ms: 1400
`,
        durationMs: 20_000,
      }),
    );
    const answered = times('FetchResponse b1>b2').filter((us) => us >= 5_000_000);
    expect(answered.slice(0, 2)).toEqual([6_401_874, 6_404_442]);
    expect(times('AlterPartition b1>controller')).toEqual([]);
    expect(result.report.partitions.map((partition) => partition.isr)).toEqual([
      ['b1', 'b2', 'b3'],
    ]);
    expect(result.report.outcome).toBe('pass');
  });

  it('a request timeout closes the connection first: its held attempts are lost', () => {
    const { result, times } = run(
      scenario({
        name: 'producer-timeout',
        producer: `      request.timeout.ms: 3000
      max.in.flight.requests.per.connection: 1
    workload:
      start.ms: 1000
      topics: [events]
      sends: 1
`,
        fault: `  - kind: partition
    nodes: [P]
    between: [b1]
    at.ms: 500
    for.ms: 8000
`,
        durationMs: 12_000,
      }),
    );
    // One Produce at the heal (8.5 s), the attempt open then; the probe send at 12 s after it.
    expect(times('Produce P>b1')).toEqual([8_500_940, 12_001_477]);
    const sends = result.history.filter((op) => op.f === 'send' && op.type === 'ok');
    expect(sends.map((op) => [op.timeUs, op.value])).toEqual([
      [
        8_504_791,
        {
          send: { topic: 'events', partition: 0, value: 0, offset: 0 },
          producerId: 1000,
          producerEpoch: 0,
        },
      ],
      [
        12_004_846,
        {
          send: { topic: 'events', partition: 0, value: 1, offset: 1 },
          producerId: 1000,
          producerEpoch: 0,
        },
      ],
    ]);
    expect(result.report.outcome).toBe('pass');
  });
});
