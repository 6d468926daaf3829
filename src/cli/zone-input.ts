// The zone file a `zone plan`/`zone apply` reads: a path, or `-` for standard input (as in every
// Unix tool). Both are held to the same cap and the same UTF-8 rule, and errors name what was
// read: the path as given, or "standard input".
import { fstatSync, type Stats } from 'node:fs';
import { resolve } from 'node:path';
import { isatty } from 'node:tty';
import { FileTooLarge, NotUtf8, readCappedUtf8, readCappedUtf8Stream } from '../config/capped-file.js';
import { errnoText } from '../lib/errno-text.js';
import { ConfigError } from '../lib/errors.js';
import { ZONE_FILE_MAX_BYTES } from '../zone/apply/zone-files.js';

const STANDARD_INPUT = 'standard input';

/** Standard input as `-` reads it: what it is (asked first), then its bytes. */
export interface StandardInput {
  kind(): { stats: Pick<Stats, 'isDirectory' | 'isCharacterDevice' | 'isBlockDevice' | 'isFile'>; terminal: boolean };
  stream(): AsyncIterable<Uint8Array | string>;
}

const processStdin: StandardInput = {
  kind: () => ({ stats: fstatSync(0), terminal: isatty(0) }),
  stream: () => process.stdin,
};

/**
 * The zone text `file` names, and the name its errors are prefixed with. `stdin` is asked for only
 * when `file` is `-`: process.stdin is not made for a command that does not read it. `tell` is for
 * the person at a terminal read from.
 */
export async function readZoneInput(
  file: string,
  cwd: string,
  stdin: StandardInput = processStdin,
  tell: (text: string) => void = () => {},
): Promise<{ text: string; shown: string }> {
  if (file !== '-') return { text: readZoneFile(resolve(cwd, file), file), shown: file };
  try {
    const kind = stdin.kind();
    vetStandardInput(kind);
    // A command that waits for a terminal without a word looks hung.
    if (kind.terminal) tell('reading the zone from the terminal: type or paste it, then Ctrl-D on a line of its own\n');
    const text = await readCappedUtf8Stream(stdin.stream(), ZONE_FILE_MAX_BYTES);
    if (!kind.stats.isFile()) refuseEmptyStream(text, STANDARD_INPUT);
    return { text, shown: STANDARD_INPUT };
  } catch (error) {
    throw readProblem(error, STANDARD_INPUT);
  }
}

/**
 * Standard input is refused as a path naming the same thing is: a folder (Node.js reads it as empty)
 * or a device (/dev/zero would be read to the cap; /dev/null, which a closed standard input is
 * opened as, would be an empty zone: every record deleted). A terminal is read: a zone typed or pasted.
 */
function vetStandardInput({ stats, terminal }: ReturnType<StandardInput['kind']>): void {
  if (stats.isDirectory()) throw new ConfigError(`${STANDARD_INPUT}: a folder, not a zone file`);
  if (stats.isBlockDevice() || (stats.isCharacterDevice() && !terminal))
    throw new ConfigError(`${STANDARD_INPUT}: a device, not a zone file (a closed standard input is /dev/null)`);
}

function readZoneFile(path: string, shown: string): string {
  try {
    let stream = false;
    // A device (/dev/zero, a disk) is no zone file: refused at once, on what was opened, not read up to the cap.
    // A pipe (`zone plan <(generate)`) is read as it comes; capped, a generator is not read without end.
    const text = readCappedUtf8(path, ZONE_FILE_MAX_BYTES, (kind) => {
      if (kind.isCharacterDevice() || kind.isBlockDevice())
        throw new ConfigError(`${shown}: a device, not a zone file`);
      stream = !kind.isFile();
    });
    if (stream) refuseEmptyStream(text, shown);
    return text;
  } catch (error) {
    throw readProblem(error, shown);
  }
}

/**
 * Nothing at all from a pipe is a writer that failed (`generate | ddedge zone apply -` with set -e off), not a zone
 * whose every record goes: refused, as `kubectl apply -f -` refuses no objects. An empty zone is asked for by a
 * file that says so (its $ORIGIN alone).
 */
function refuseEmptyStream(text: string, shown: string): void {
  if (text.trim() === '')
    throw new ConfigError(
      `${shown}: nothing was read from the pipe (did the command that writes the zone fail?); nothing was planned. ` +
        'A zone of no records is a file that holds its $ORIGIN alone',
    );
}

/** What stopped a read, prefixed with what was read, as the errors in its lines are (FILE:LINE:COLUMN: …). */
function readProblem(error: unknown, shown: string): unknown {
  if (error instanceof ConfigError) return error;
  if (error instanceof FileTooLarge)
    return new ConfigError(`${shown}: larger than ${ZONE_FILE_MAX_BYTES / 1024 / 1024} MiB, too large for a zone file`);
  // Read as UTF-8 regardless, a Latin-1 "é" would become U+FFFD and be sent as such.
  if (error instanceof NotUtf8)
    return new ConfigError(
      `${shown}:${error.line}:${error.column}: a byte that is not UTF-8 (save the file as UTF-8, or write a byte ` +
        `in TXT data as \\DDD)`,
    );
  return new ConfigError(`${shown}: cannot be read: ${errnoText(error)}`);
}
