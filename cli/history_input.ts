/**
 * Reads a history file (docs/history.md) for `eos-sim check`: JSON Lines with a header line,
 * one line per history operation and one `{"oracle": …}` line. Each line is validated for the
 * fields the checkers read, and a problem is reported as a usage error naming the file and the
 * 1-based line, in the house style ("`type` must be one of …").
 */
import { readFileSync } from 'node:fs';
import type { DeliveredRecord, History, HistoryOp, Oracle } from '../sim/history';
import { deliveredBatchesOf } from '../sim/history';
import { HISTORY_FORMAT, HISTORY_FORMAT_VERSION, type HistoryHeader } from '../reports';
import { UsageError, errorMessage } from './errors';

/** A history file, parsed. */
export interface HistoryInput {
  readonly header: HistoryHeader;
  readonly history: History;
  readonly oracle: Oracle;
}

const OP_TYPES = new Set(['invoke', 'ok', 'fail', 'info']);
const OP_FUNCTIONS = new Set(['init', 'txn', 'send', 'poll', 'final-read', 'nemesis']);
const ORACLE_ARRAYS = ['partitions', 'epochGrants', 'faults', 'invariantViolations'] as const;
const PARTITION_ARRAYS = [
  'highWatermarkChanges',
  'lastStableOffsetChanges',
  'openTransactions',
] as const;

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The problem with one operation line, or undefined when it has every field a checker reads. */
function opProblem(value: Json, expectedIndex: number): string | undefined {
  if (value['index'] !== expectedIndex) return `\`index\` must be ${expectedIndex}`;
  if (!Number.isSafeInteger(value['timeUs'])) return '`timeUs` must be an integer';
  if (!OP_TYPES.has(String(value['type']))) return '`type` must be one of invoke, ok, fail, info';
  if (!OP_FUNCTIONS.has(String(value['f']))) {
    return `\`f\` must be one of ${[...OP_FUNCTIONS].join(', ')}`;
  }
  if (typeof value['process'] !== 'string') return '`process` must be a string';
  if (typeof value['client'] !== 'string') return '`client` must be a string';
  if (!isObject(value['value'])) return '`value` must be an object';
  const body = value['value'];
  const f = value['f'];
  if (f === 'txn' && !Array.isArray(body['sends'])) return '`value.sends` must be an array';
  if (f === 'send' && !isObject(body['send']) && !isObject(body['run'])) {
    return '`value.send` (one record) or `value.run` (a batch of records) must be an object';
  }
  if ((f === 'poll' || f === 'final-read') && value['type'] === 'ok') {
    if (!Array.isArray(body['batches']) && !Array.isArray(body['records'])) {
      return '`value.batches` (or `value.records`, one per record) must be an array';
    }
    if (!Array.isArray(body['positions'])) return '`value.positions` must be an array';
  }
  return undefined;
}

/**
 * A poll as the checkers read it: a file of the one-record-per-entry form (`records`, as
 * eos-sim wrote before the range form) gets its records grouped into `batches`.
 */
function withDeliveredBatches(value: Json): Json {
  if (value['f'] !== 'poll' && value['f'] !== 'final-read') return value;
  const body = value['value'] as Json;
  if (Array.isArray(body['batches'])) return value;
  const { records, ...rest } = body;
  const delivered = Array.isArray(records) ? (records as DeliveredRecord[]) : [];
  return { ...value, value: { ...rest, batches: deliveredBatchesOf(delivered) } };
}

function oracleProblem(oracle: unknown): string | undefined {
  if (!isObject(oracle)) return '`oracle` must be an object';
  for (const key of ORACLE_ARRAYS) {
    if (!Array.isArray(oracle[key])) return `\`oracle.${key}\` must be an array`;
  }
  for (const [index, partition] of (oracle['partitions'] as unknown[]).entries()) {
    if (!isObject(partition)) return `\`oracle.partitions[${index}]\` must be an object`;
    for (const key of PARTITION_ARRAYS) {
      if (!Array.isArray(partition[key])) {
        return `\`oracle.partitions[${index}].${key}\` must be an array`;
      }
    }
    // The log: `batches` (as eos-sim writes it) or `records` (one entry per offset).
    if (Array.isArray(partition['batches']) === Array.isArray(partition['records'])) {
      const both = '`batches` and `records`';
      return `\`oracle.partitions[${index}]\` must have exactly one of ${both} as an array`;
    }
  }
  return undefined;
}

function parseLine(text: string, where: string): Json {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Invalid history file: ${where}: not JSON: ${errorMessage(error)}`);
  }
  if (!isObject(value)) throw new UsageError(`Invalid history file: ${where}: not an object`);
  return value;
}

function parseHeader(text: string | undefined, file: string): HistoryHeader {
  const header = parseLine(text ?? '', `${file} line 1`);
  if (header['format'] !== HISTORY_FORMAT || header['version'] !== HISTORY_FORMAT_VERSION) {
    throw new UsageError(
      `Invalid history file: ${file} line 1: the header must have format ` +
        `"${HISTORY_FORMAT}" and version ${HISTORY_FORMAT_VERSION}`,
    );
  }
  return header as unknown as HistoryHeader;
}

/**
 * Reads and validates the history file at `file`.
 * @throws UsageError when the file is missing or a line is invalid.
 * @example const { history, oracle } = readHistoryFile('out.jsonl');
 */
export function readHistoryFile(file: string): HistoryInput {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read history file: ${file}: ${errorMessage(error)}`);
  }
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const header = parseHeader(lines[0], file);
  const history: HistoryOp[] = [];
  let oracle: Oracle | undefined;
  for (let index = 1; index < lines.length; index++) {
    const where = `${file} line ${index + 1}`;
    const value = parseLine(lines[index] as string, where);
    if ('oracle' in value) {
      if (oracle !== undefined)
        throw new UsageError(`Invalid history file: ${where}: a second oracle`);
      const problem = oracleProblem(value['oracle']);
      if (problem !== undefined) throw new UsageError(`Invalid history file: ${where}: ${problem}`);
      oracle = value['oracle'] as Oracle;
      continue;
    }
    const problem = opProblem(value, history.length);
    if (problem !== undefined) throw new UsageError(`Invalid history file: ${where}: ${problem}`);
    history.push(withDeliveredBatches(value) as unknown as HistoryOp);
  }
  if (oracle === undefined) {
    throw new UsageError(
      `Invalid history file: ${file}: no {"oracle": …} line; the checkers need the final log ` +
        'of every partition (docs/history.md says what it must hold)',
    );
  }
  return { header, history, oracle };
}
