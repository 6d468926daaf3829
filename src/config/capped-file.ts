// Reads a small text file (a secret, a dotenv file) with a size cap, so that /dev/zero, a
// device or a runaway generator behind a path is an error at once instead of a read without
// end. Reads from the descriptor until the end, so a pipe (`KEY_FILE=<(pass show …)`) works.
import { closeSync, openSync, readSync } from 'node:fs';

export class FileTooLarge extends Error {}

export function readCappedText(path: string, maxBytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    // Each round reads at least one byte or ends the loop, so it runs at most maxBytes + 1 times.
    while (size < buffer.length) {
      const bytesRead = readSync(fd, buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
    }
    if (size > maxBytes) throw new FileTooLarge();
    return buffer.subarray(0, size).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
