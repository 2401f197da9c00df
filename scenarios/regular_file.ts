/**
 * Reads an input file the user named, refusing what is not a regular file before reading a
 * byte: a FIFO would block the read forever, `/dev/zero` never ends, a directory has no text.
 * The file is opened non-blocking (so opening a FIFO returns at once) and checked with `fstat`
 * on the open descriptor, so a path swapped between the check and the read cannot slip through.
 * Every failure is a {@link FileReadError} with the system error's code and one line of detail.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/** An input file that cannot be read as a regular file. */
export class FileReadError extends Error {
  /** The system error code (`ENOENT`, `ELOOP`, `EACCES`), or `ESPECIAL`/`EFBIG` for our checks. */
  readonly code: string;
  /** What is wrong, lower case first (`is a FIFO: expected a regular file`). */
  readonly detail: string;

  constructor(path: string, code: string, detail: string) {
    super(`${path}: ${detail}`);
    this.name = 'FileReadError';
    this.code = code;
    this.detail = detail;
  }
}

/** What a non-regular file is, for the message. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** The code and one-line reason of a system error. */
function systemReason(error: unknown): { code: string; reason: string } {
  const code =
    error instanceof Error && 'code' in error && typeof error.code === 'string'
      ? error.code
      : 'EIO';
  const text = error instanceof Error ? error.message : String(error);
  // Node's message is `ELOOP: too many symbolic links encountered, open '/x'`: drop the call.
  return { code, reason: text.replace(/, \w+ '[^']*'$/, '').replace(/\s*\n\s*/g, ' ') };
}

/**
 * The bytes of the regular file at `path`, at most `maxBytes` of them.
 *
 * @throws {@link FileReadError} when the path does not exist, cannot be opened or read, is not
 * a regular file, or is larger than `maxBytes`.
 * @example readRegularFile('scenarios/zombie-fencing.yaml', 1_048_576).length // 1570
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const { code, reason } = systemReason(error);
    throw new FileReadError(path, code, `cannot be read: ${reason}`);
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) {
      throw new FileReadError(path, 'EISDIR', 'is a directory: expected a scenario file');
    }
    if (!stats.isFile()) {
      throw new FileReadError(path, 'ESPECIAL', `is ${kindOf(stats)}: expected a regular file`);
    }
    if (stats.size > maxBytes) {
      const detail = `is ${stats.size} bytes: at most ${maxBytes} are read`;
      throw new FileReadError(path, 'EFBIG', detail);
    }
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (;;) {
      const read = readSync(fd, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
      if (length > maxBytes) {
        throw new FileReadError(path, 'EFBIG', `is over ${maxBytes} bytes: at most that is read`);
      }
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof FileReadError) throw error;
    const { code, reason } = systemReason(error);
    throw new FileReadError(path, code, `cannot be read: ${reason}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * The 1-based line of the first byte sequence that is not UTF-8, or undefined when all of
 * `bytes` is UTF-8 (a byte-order mark is UTF-8 too).
 *
 * @example utf8ProblemLine(Buffer.from([0x61, 0x0a, 0xff])) // 2
 */
export function utf8ProblemLine(bytes: Buffer): number | undefined {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    decoder.decode(bytes);
    return undefined;
  } catch {
    let line = 1;
    let start = 0;
    for (let index = 0; index <= bytes.length; index++) {
      if (index < bytes.length && bytes[index] !== 0x0a) continue;
      try {
        decoder.decode(bytes.subarray(start, index));
      } catch {
        return line;
      }
      line++;
      start = index + 1;
    }
    return line;
  }
}
