/**
 * The CLI's writes to the file system, each failing as one {@link OutputFileError} line that
 * names the path and the system error, with the sysexits code it maps to (sysexits.h): 73
 * (EX_CANTCREAT) when the file or folder cannot be created or opened, 74 (EX_IOERR) when a write
 * to an open file fails (a full device, a quota, an I/O error). Node's own error of a failed
 * `write` names no path, so every write goes through here.
 */
import { closeSync, constants, mkdirSync, openSync, writeSync } from 'node:fs';

/** A file the CLI could not create or write. */
export class OutputFileError extends Error {
  /** Stable code for programs and exit-code mapping. */
  readonly code = 'SIM_OUTPUT_FILE';
  /** 73: cannot create; 74: I/O error. */
  readonly exitCode: 73 | 74;

  constructor(options: { path: string; exitCode: 73 | 74; cause: unknown }) {
    const verb = options.exitCode === 73 ? 'Cannot create' : 'Cannot write';
    super(`${verb} ${options.path}: ${systemErrorText(options.cause)}`);
    this.name = 'OutputFileError';
    this.exitCode = options.exitCode;
  }
}

/**
 * A system error as `CODE: what it means`, without Node's trailing `, open '<path>'`.
 * @example systemErrorText(enospc) // 'ENOSPC: no space left on device'
 */
export function systemErrorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/, \w+( '[^']*')?$/, '').replace(/\s*\n\s*/g, ' ');
}

/** Opens `path` with `flags`, as a 73 on failure. */
function openOutput(path: string, flags: number): number {
  try {
    return openSync(path, flags, 0o666);
  } catch (cause) {
    const link =
      (flags & constants.O_NOFOLLOW) !== 0 && (cause as { code?: unknown }).code === 'ELOOP';
    const why = link
      ? new Error('is a symbolic link: refused, so that writing cannot overwrite its target')
      : cause;
    throw new OutputFileError({ path, exitCode: 73, cause: why });
  }
}

/** Writes all of `text` to the open `fd` of `path`, as a 74 on failure. */
function writeAll(fd: number, path: string, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
  } catch (cause) {
    throw new OutputFileError({ path, exitCode: 74, cause });
  }
}

/**
 * Writes `text` to `path`, creating or truncating it.
 * @throws {@link OutputFileError} 73 when it cannot be opened, 74 when the write fails.
 * @example writeOutputFile('run.md', markdown)
 */
export function writeOutputFile(path: string, text: string): void {
  const fd = openOutput(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC);
  try {
    writeAll(fd, path, text);
  } finally {
    closeSync(fd);
  }
}

/**
 * Creates the folder `path` with its parents.
 * @throws {@link OutputFileError} 73 when it cannot be created.
 */
export function makeFolder(path: string): void {
  try {
    mkdirSync(path, { recursive: true });
  } catch (cause) {
    throw new OutputFileError({ path, exitCode: 73, cause });
  }
}

/**
 * An append-only file that is never a symbolic link (O_NOFOLLOW), so a link planted where the
 * results file goes cannot redirect the writes to its target.
 */
export class AppendFile {
  private readonly fd: number;

  /** Opens `path` for appending (`truncate`: emptied first), creating it when missing. */
  constructor(
    readonly path: string,
    options: { readonly truncate: boolean },
  ) {
    const truncate = options.truncate ? constants.O_TRUNC : 0;
    const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | truncate;
    this.fd = openOutput(path, flags | constants.O_NOFOLLOW);
  }

  /** Appends `text` in one write. */
  append(text: string): void {
    writeAll(this.fd, this.path, text);
  }

  close(): void {
    closeSync(this.fd);
  }
}
