// The file:<path> source: a router's own script (or a test) writes the WAN address to a file.
// Read afresh on every ask, capped like an echo answer; the public-address rules are applied
// by the caller, as for every source.
import { constants } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { describeFileType } from '../lib/regular-file.js';
import type { Family } from '../lib/address.js';

// O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer, holding one of libuv's
// four worker threads for good (the process cannot exit; after four, name lookups stop).
// Opened without blocking, a FIFO or a device is seen and refused before any read.
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The same cap as an echo service's answer: an address file is a few bytes. */
export const FILE_SOURCE_MAX_BYTES = 64 * 1024;

export class FileSourceError extends Error {}

export async function readAddressFile(path: string): Promise<string> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, OPEN_FLAGS);
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FileSourceError(`${path} is ${describeFileType(stats)}, not a regular file`);
    const buffer = Buffer.alloc(FILE_SOURCE_MAX_BYTES + 1);
    let size = 0;
    // Read until the end or one byte past the cap (a /proc file may come in pieces).
    for (let round = 0; round <= FILE_SOURCE_MAX_BYTES && size < buffer.length; round++) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    if (size > FILE_SOURCE_MAX_BYTES)
      throw new FileSourceError(`${path} is over the ${FILE_SOURCE_MAX_BYTES}-byte limit for an address file`);
    return buffer.subarray(0, size).toString('utf8');
  } catch (error) {
    if (error instanceof FileSourceError) throw error;
    throw new FileSourceError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  } finally {
    await handle?.close();
  }
}

export const noAddressIn = (path: string, family: Family) => new FileSourceError(`no IPv${family} address in ${path}`);
