// Reads a small text file (a secret, a dotenv file) with a size cap, so that /dev/zero, a
// device or a runaway generator behind a path is an error at once instead of a read without
// end. Reads from the descriptor until the end, so a pipe (`KEY_FILE=<(pass show …)`) works;
// standard input is read as a stream, under the same cap.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

export class FileTooLarge extends Error {}

/** The text is not UTF-8: `line` and `column` (1-based, in bytes of that line) of the first byte that is not. */
export class NotUtf8 extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
  ) {
    super(`not UTF-8 at line ${line}, column ${column}`);
  }
}

/**
 * As readCappedText, for text whose every byte matters (a zone file): bytes that are not UTF-8
 * are an error naming where, not U+FFFD put silently in their place. The file is opened as a pipe
 * is (waiting for its writer); `vet` checks what was opened before a byte is read.
 */
export function readCappedUtf8(path: string, maxBytes: number, vet?: (stat: Stats) => void): string {
  return strictUtf8(readCappedBytes(path, maxBytes, vet, { wait: true }));
}

/**
 * As readCappedUtf8, for a stream (standard input): read as it comes and refused (FileTooLarge)
 * as soon as it passes the cap, so an endless or huge stream is never held whole. Leaving the
 * loop early ends the stream.
 */
export async function readCappedUtf8Stream(
  stream: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Bounded by the stream's end or the cap, whichever comes first.
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    size += buffer.length;
    if (size > maxBytes) throw new FileTooLarge();
    chunks.push(buffer);
  }
  return strictUtf8(Buffer.concat(chunks, size));
}

/** The text of `bytes`, or NotUtf8 naming where the first byte that is not UTF-8 is. */
export function strictUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw notUtf8At(bytes);
  }
}

/** Finds the first byte that does not begin or continue a valid UTF-8 sequence; one pass. */
function notUtf8At(bytes: Uint8Array): NotUtf8 {
  let line = 1;
  let lineStart = 0;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    if (b === 0x0a) {
      line++;
      lineStart = ++i;
      continue;
    }
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) return new NotUtf8(line, i - lineStart + 1);
    try {
      decoder.decode(bytes.subarray(i, i + length));
    } catch {
      return new NotUtf8(line, i - lineStart + 1);
    }
    i += length;
  }
  return new NotUtf8(line, bytes.length - lineStart + 1);
}

/**
 * `vet`, given the status of the file as opened, may throw to refuse it before a byte is read:
 * what is checked is then the very file read, not one a path named a moment earlier. A file
 * that is vetted is opened without waiting for a writer, so a FIFO put in its place cannot hold
 * the open forever before vet has had its say.
 */
export function readCappedText(
  path: string,
  maxBytes: number,
  vet?: (stat: Stats) => void,
  options: OpenOptions = {},
): string {
  return readCappedBytes(path, maxBytes, vet, options).toString('utf8');
}

interface OpenOptions {
  /** Open as a pipe is read (waiting for a writer) even when vetted. */
  wait?: boolean;
  /** A symbolic link at the path fails the open (ELOOP), for a caller that vets links itself. */
  noFollow?: boolean;
  /** Opens the path (node:fs openSync); tests put a step before or after the open. */
  open?: (path: string, flags: number) => number;
}

/**
 * `wait`: open as a pipe is read (waiting for a writer) even when vetted, for a file that may be a pipe's
 * (`zone plan <(generate)`), whose vet refuses only what no wait could make readable (a device).
 */
function readCappedBytes(
  path: string,
  maxBytes: number,
  vet?: (stat: Stats) => void,
  { wait = !vet, noFollow = false, open = openSync }: OpenOptions = {},
): Buffer {
  const flags = constants.O_RDONLY | (wait ? 0 : constants.O_NONBLOCK) | (noFollow ? constants.O_NOFOLLOW : 0);
  const fd = open(path, flags);
  try {
    // A regular file's size says how much room it needs (a zone file may be large, a cap of
    // 256 MiB must not be allocated for each 1 kB file); a pipe or device gets room as it comes.
    const stat = fstatSync(fd);
    vet?.(stat);
    let buffer = Buffer.allocUnsafe(Math.min(maxBytes, stat.isFile() ? stat.size : 64 * 1024) + 1);
    let size = 0;
    // Each round reads at least one byte or ends the loop, so it runs at most maxBytes + 1 times.
    for (;;) {
      if (size === buffer.length) {
        if (size > maxBytes) break;
        const larger = Buffer.allocUnsafe(Math.min(maxBytes + 1, buffer.length * 2));
        buffer.copy(larger, 0, 0, size);
        buffer = larger;
      }
      const bytesRead = readSync(fd, buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    if (size > maxBytes) throw new FileTooLarge();
    return buffer.subarray(0, size);
  } finally {
    closeSync(fd);
  }
}
