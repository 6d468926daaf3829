// Where `zone export --output PATH` may write. The file is written whole and renamed into place,
// which replaces what the path held, not what it points to: only a regular file (or nothing) may be
// replaced so. A symbolic link (/dev/stdout, whatever it leads to), a device (/dev/null), a FIFO, a
// socket or a folder there is refused before anything is asked of the provider.
import { ConfigError } from '../lib/errors.js';
import { notReplaceable } from '../lib/replaceable-file.js';

/** Throws a ConfigError when `path` (as the user gave it: `shown`) is there and is no regular file. */
export function vetExportOutput(path: string, shown: string): void {
  const kind = notReplaceable(path);
  if (kind === undefined) return;
  throw new ConfigError(
    `--output: "${shown}" is ${kind}, not a file; nothing was written (give the file itself; standard ` +
      'output is --output - or no --output)',
  );
}
