/**
 * The console view of a cluster state (`eos-sim run … --until …`): a pure rendering of a
 * {@link ClusterState} to a string. Where the run stopped; each partition with the controller's
 * leader, leader epoch and ISR, then per replica its log end offset, high watermark and last
 * stable offset, open transactions, producer state and the log batches around those offsets
 * (markers shown as COMMIT/ABORT, runs left out counted); every coordinator's transactions; each
 * client's producer or consumer state and its messages in flight. Names from the scenario are
 * printed with control characters made visible, so no string can move the cursor or fake a line.
 */
import type {
  BatchLine,
  ClientState,
  ClusterState,
  CoordinatorState,
  MessageLine,
  OmittedBatches,
  PartitionState,
  ReplicaState,
} from '../sim/runner';
import { palette, type Palette } from './console';
import { formatSeconds } from './text_layout';

/** Messages listed per client; the rest are counted. */
const MESSAGES_PER_CLIENT_MAX = 8;

/**
 * `text` with every C0/C1 control character and DEL written as `\xNN`, so it prints on one line
 * and cannot drive the terminal.
 * @example visible('a\nb') // 'a\\x0ab'
 */
export function visible(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

function batchText(line: BatchLine | OmittedBatches): string {
  if ('omitted' in line) {
    return `… ${line.omitted} batches left out (offsets ${line.fromOffset}-${line.toOffset})`;
  }
  const range =
    line.baseOffset === line.lastOffset
      ? `${line.baseOffset}`
      : `${line.baseOffset}-${line.lastOffset}`;
  if (line.transactionLog !== undefined) {
    const appended = formatSeconds(line.appendUs);
    return `${line.baseOffset} ${visible(line.transactionLog)}, appended ${appended}`;
  }
  const kind =
    line.control !== undefined
      ? `${line.control} marker, coordinatorEpoch ${line.coordinatorEpoch ?? '?'},`
      : line.isTransactional
        ? 'transactional'
        : 'data';
  const who =
    line.producerId < 0
      ? 'no producerId'
      : `producerId ${line.producerId} epoch ${line.producerEpoch}`;
  const sequence = line.baseSequence < 0 ? '' : ` baseSequence ${line.baseSequence}`;
  return (
    `${range} ${kind} ${who}${sequence}, leaderEpoch ${line.leaderEpoch}, ` +
    `appended ${formatSeconds(line.appendUs)}`
  );
}

function replicaLines(replica: ReplicaState, style: Palette): string[] {
  const open = replica.openTransactions
    .map((txn) => `producerId ${txn.producerId} from ${txn.firstOffset}`)
    .join(', ');
  const lines = [
    `  ${style.bold(replica.broker)} ${replica.role}: log start ${replica.logStartOffset}, ` +
      `LEO ${replica.logEndOffset}, HW ${replica.highWatermark}, LSO ${replica.lastStableOffset}` +
      `; open transactions: ${open === '' ? 'none' : open}`,
  ];
  for (const producer of replica.producers) {
    const txn =
      producer.currentTxnFirstOffset === undefined
        ? 'no open transaction'
        : `transaction open from ${producer.currentTxnFirstOffset}`;
    const last =
      producer.lastBatch === undefined
        ? ''
        : `, last batch sequences ${producer.lastBatch.firstSequence}-` +
          `${producer.lastBatch.lastSequence} at ${producer.lastBatch.firstOffset}-` +
          `${producer.lastBatch.lastOffset}`;
    lines.push(
      `    producerId ${producer.producerId} epoch ${producer.producerEpoch} coordinatorEpoch ` +
        `${producer.coordinatorEpoch}: ${txn}${last}`,
    );
  }
  lines.push(`    log (${replica.batches} batches):`);
  for (const line of replica.log) lines.push(`      ${batchText(line)}`);
  return lines;
}

function partitionLines(partition: PartitionState, style: Palette): string[] {
  const name = visible(`${partition.topic}-${partition.partition}`);
  return [
    style.bold(
      `${name}: leader ${visible(partition.leader ?? 'none (offline)')}, leaderEpoch ` +
        `${partition.leaderEpoch}, ISR [${partition.isr.map(visible).join(', ')}]`,
    ),
    ...partition.replicas.flatMap((replica) => replicaLines(replica, style)),
  ];
}

function coordinatorLines(coordinator: CoordinatorState, style: Palette): string[] {
  const owned = coordinator.partitions
    .map((p) => `${p.partition}${p.loading ? ' (loading)' : ''}`)
    .join(', ');
  const lines = [
    `${style.bold(`coordinator on ${coordinator.broker}`)}: __transaction_state partitions ` +
      `${owned === '' ? 'none' : owned}`,
  ];
  for (const txn of coordinator.transactions) {
    const pending = txn.pendingState === null ? '' : ` (pending ${txn.pendingState})`;
    const partitions =
      txn.partitions.length === 0 ? 'none' : txn.partitions.map(visible).join(', ');
    lines.push(
      `  ${visible(txn.transactionalId)}: ${txn.state}${pending}, producerId ${txn.producerId} ` +
        `epoch ${txn.producerEpoch}, partitions ${partitions}, ` +
        (txn.txnStartUs < 0
          ? 'no transaction started'
          : `started ${formatSeconds(txn.txnStartUs)}`) +
        `, transaction.timeout.ms ${txn.txnTimeoutMs}`,
    );
  }
  return lines;
}

function messageText(message: MessageLine): string {
  const correlation = message.correlationId === undefined ? '' : ` #${message.correlationId}`;
  const due = message.dueUs === null ? message.where : `due ${formatSeconds(message.dueUs)}`;
  return (
    `${visible(message.source)} -> ${visible(message.target)} ${message.kind}${correlation}, ` +
    `sent ${formatSeconds(message.sentUs)}, ${due}`
  );
}

function clientLines(client: ClientState, style: Palette): string[] {
  const lines = [
    `${style.bold(visible(client.name))} (${client.role}, ${client.status}` +
      `${client.busy ? ', operation open' : ''})`,
  ];
  const { producer, consumer } = client;
  if (producer !== undefined) {
    const id =
      producer.transactionalId === null
        ? ''
        : ` transactional.id ${visible(producer.transactionalId)},`;
    const error = producer.lastError === 'NONE' ? '' : `, last error ${producer.lastError}`;
    lines.push(
      `  producer:${id} state ${producer.state}, producerId ${producer.producerId} epoch ` +
        `${producer.producerEpoch}${error}`,
    );
  }
  if (consumer !== undefined) {
    const positions = consumer.positions
      .map((p) => `${visible(`${p.topic}-${p.partition}`)} at ${p.position ?? 'none'}`)
      .join(', ');
    lines.push(
      `  consumer: ${consumer.isolationLevel}, ${consumer.polling ? 'polling' : 'not polling'}, ` +
        `positions ${positions === '' ? 'none' : positions}`,
    );
  }
  const shown = client.inFlight.slice(0, MESSAGES_PER_CLIENT_MAX);
  lines.push(`  in flight: ${client.inFlight.length === 0 ? 'nothing' : ''}`.trimEnd());
  for (const message of shown) lines.push(`    ${messageText(message)}`);
  if (client.inFlight.length > shown.length) {
    lines.push(`    … ${client.inFlight.length - shown.length} more (in --json)`);
  }
  return lines;
}

/**
 * Renders `state` for a terminal; the result ends with a newline.
 * @example process.stdout.write(renderClusterState(state, { colour: false }));
 */
export function renderClusterState(state: ClusterState, options: { colour: boolean }): string {
  const style = palette(options.colour);
  const down = state.nodes.filter((node) => node.status !== 'running');
  const downText =
    down.length === 0 ? 'none' : down.map((n) => `${visible(n.id)} ${n.status}`).join(', ');
  const sections = [
    [
      style.bold(
        `cluster of ${visible(state.scenario)}, seed ${state.seed}, at ` +
          `${formatSeconds(state.timeUs)} after event ${state.eventsRun} (${state.phase} phase)`,
      ),
      `stopped by ${visible(state.stoppedBy)}`,
      `nodes not running: ${downText}`,
      `messages in flight: ${state.messagesInFlight}`,
    ],
    ...state.partitions.map((partition) => partitionLines(partition, style)),
    state.coordinators.flatMap((coordinator) => coordinatorLines(coordinator, style)),
    ...state.clients.map((client) => clientLines(client, style)),
  ];
  return `${sections.map((lines) => lines.join('\n')).join('\n\n')}\n`;
}
