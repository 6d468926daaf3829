// The process's own stdout and stderr. Output must be complete whatever they are (pipe,
// file, terminal): a pipe takes 64 KiB and the rest waits in Node's buffer, so the entry
// waits for both streams to drain before process.exit(). A reader that leaves early
// (`| head`, EPIPE) is not an error of ddedge: what it no longer wants is dropped quietly.
import type { Writable } from 'node:stream';
import { ExitCode } from '../errors.js';

const gone = new WeakSet<Writable>();
/** A write failure other than a departed reader (a full disk under `> file`), reported at exit. */
let failure: NodeJS.ErrnoException | undefined;

function watch(stream: Writable): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    gone.add(stream);
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') failure ??= error;
  });
}

let watching = false;
/** Installs the error handlers once; without them an EPIPE is an uncaught exception with a stack. */
export function watchStandardStreams(): void {
  if (watching) return;
  watching = true;
  watch(process.stdout);
}

// stderr is watched (and so made: process.stderr builds its stream, a pipe's or a socket's,
// on first use, ~2 ms of a cycle) only once something is written to it; a plain cycle writes
// nothing there. Every CLI write to stderr goes through writeStderr (the logger's too).
let stderrUsed = false;
export function writeStderr(text: string): void {
  if (!stderrUsed) {
    stderrUsed = true;
    watch(process.stderr);
  }
  writeStandard(process.stderr, text);
}

/** Writes to a standard stream unless its reader has gone. */
export function writeStandard(stream: Writable, text: string): void {
  if (gone.has(stream) || stream.destroyed) return;
  stream.write(text);
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (gone.has(stream) || stream.destroyed || stream.writableLength === 0) return resolve();
    // Callbacks run in order, so this one runs once everything written before it is out
    // (or with an error when the reader leaves meanwhile; 'close' covers a destroy).
    stream.once('close', () => resolve());
    stream.write('', () => resolve());
  });
}

/** Exits with `code` once everything written has left the process. */
export async function exitAfterOutput(code: number): Promise<never> {
  await Promise.all([drained(process.stdout), stderrUsed ? drained(process.stderr) : undefined]);
  // A failed write to a file reports its error on a later tick.
  await new Promise((resolve) => setImmediate(resolve));
  if (failure && !gone.has(process.stderr)) {
    writeStderr(`ddedge: could not write the output: ${failure.code ?? failure.message}\n`);
    await drained(process.stderr);
  }
  // Output that could not be written (a full disk) is a failure to retry later, as a full disk
  // is elsewhere; a command that failed already keeps its own code.
  process.exit(failure && code === 0 ? ExitCode.transient : code);
}
