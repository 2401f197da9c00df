/**
 * Reads one Java `.properties` file as Kafka does (`Utils.loadProps` hands the file's bytes to
 * `java.util.Properties.load(InputStream)`: ISO-8859-1, `#`/`!` comments, `key=value`,
 * `key: value` and `key value`, backslash escapes and line continuations). The grammar is left
 * to the `dot-properties` library; this module adds what `Properties.load` refuses and the
 * library lets through (a malformed `\uXXXX` escape: "Malformed \uxxxx encoding.") and what a
 * command line must refuse before parsing (a directory, a binary file, a file too large).
 */
import { readFileSync, statSync } from 'node:fs';
import { parseLines, type Pair } from 'dot-properties';
import { UsageError } from '../errors';

/** Larger files are refused: a configuration file is a few kilobytes. */
const PROPERTIES_BYTES_MAX = 1_000_000;

/** One key of a file, as `Properties.load` resolved it, with the line it starts on. */
export interface PropertyEntry {
  readonly key: string;
  readonly value: string;
  /** 1-based line of the key. */
  readonly line: number;
}

/** A parsed file: its path and its keys, the last assignment of a repeated key winning. */
export interface PropertiesFile {
  readonly path: string;
  readonly entries: ReadonlyMap<string, PropertyEntry>;
}

/** 1-based line of `offset` in `text`. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = 0; index < offset && index < text.length; index++) {
    if (text[index] === '\n') line += 1;
  }
  return line;
}

/**
 * The offset of the first `\u` escape in `raw` not followed by four hex digits, or -1.
 * Escaped backslashes (`\\`) are skipped in pairs, as `Properties.loadConvert` reads them.
 */
export function malformedUnicodeEscape(raw: string): number {
  for (let index = 0; index < raw.length; index++) {
    if (raw[index] !== '\\') continue;
    if (raw[index + 1] === 'u' && !/^[0-9a-fA-F]{4}$/.test(raw.slice(index + 2, index + 6))) {
      return index;
    }
    index += 1;
  }
  return -1;
}

/** The file's bytes, refusing what is not a regular, textual, reasonably small file. */
function readBytes(path: string): Buffer {
  let size: number;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) throw new UsageError(`${path}: is a directory, not a .properties file`);
    if (!stat.isFile()) throw new UsageError(`${path}: not a regular file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${path}: cannot read: ${(error as NodeJS.ErrnoException).code ?? ''}`);
  }
  if (size > PROPERTIES_BYTES_MAX) {
    throw new UsageError(`${path}: ${size} bytes, more than a configuration file's limit`);
  }
  const bytes = readFileSync(path);
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const line = lineAt(bytes.toString('latin1'), nul);
    throw new UsageError(`${path}:${line}: binary file (a NUL byte), not a .properties file`);
  }
  return bytes;
}

/**
 * Parses properties text.
 * @throws {@link UsageError} `file:line: key: Malformed \uxxxx encoding.` as Java refuses it.
 * @example parsePropertiesText('acks = all\n', 'p.properties').entries.get('acks')?.value // 'all'
 */
export function parsePropertiesText(text: string, path: string): PropertiesFile {
  const entries = new Map<string, PropertyEntry>();
  for (const node of parseLines(text, true)) {
    if (node.type !== 'PAIR') continue;
    const pair = node as Required<Pair>;
    const [keyStart, , , valueEnd] = pair.range;
    const bad = malformedUnicodeEscape(text.slice(keyStart, valueEnd));
    if (bad >= 0) {
      const line = lineAt(text, keyStart + bad);
      throw new UsageError(`${path}:${line}: ${pair.key}: Malformed \\uxxxx encoding.`);
    }
    entries.delete(pair.key);
    entries.set(pair.key, { key: pair.key, value: pair.value, line: lineAt(text, keyStart) });
  }
  return { path, entries };
}

/**
 * Reads and parses a `.properties` file (ISO-8859-1, as `Properties.load(InputStream)`).
 * @throws {@link UsageError} one line naming the file (and line) for anything unreadable.
 */
export function readPropertiesFile(path: string): PropertiesFile {
  return parsePropertiesText(readBytes(path).toString('latin1'), path);
}
