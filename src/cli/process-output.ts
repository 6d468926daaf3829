// The process's own stdout and stderr. Output must be complete whatever they are (pipe,
// file, terminal), and a reader that leaves early (`| head`, EPIPE) is not an error of
// ddedge: what it no longer wants is dropped quietly.
//
// Text goes straight to the file descriptor with a synchronous write while the descriptor
// takes it: a terminal, a file or a blocking pipe (what a shell or a spawning parent gives)
// takes all of it, in order, and nothing is left in a buffer at exit. No stream is built, which
// saves a cycle the ~2 ms that process.stdout costs to make. A descriptor that is non-blocking
// and full (EAGAIN: a parent shared its own non-blocking pipe) gets the rest through Node's
// stream, and so does everything after it, in order; the entry waits for that stream to drain
// before process.exit().
//
// A command that runs until stopped (the daemon, the sandbox) never blocks on its output: a
// log collector that stops reading must not stop the cycles, the signals or the exit. Its
// output goes through the stream from the start (a pipe or socket is then written without
// blocking); what the reader has not taken is held up to MAX_BACKLOG, later lines are dropped
// and counted, and the exit waits for the reader at most EXIT_WAIT_MS. Blocking forever (the
// one-shot commands' choice, whose output must be complete) would leave a daemon deaf to
// SIGTERM with the state lock held; holding without bound (Node's own streams) would let a
// stalled collector take all memory.
import type { Writable } from 'node:stream';
import { writeSync } from 'node:fs';
import { ExitCode } from '../lib/errors.js';

interface Channel {
  fd: 1 | 2;
  stream(): Writable;
  /** Set once a write met a full non-blocking descriptor: the stream carries the rest. */
  streamed: boolean;
  /** The reader has gone (EPIPE) or the output cannot be written: drop what follows. */
  gone: boolean;
  /** Writes dropped while the backlog was full (long-running commands only). */
  dropped: number;
}

const stdout: Channel = { fd: 1, stream: () => process.stdout, streamed: false, gone: false, dropped: 0 };
const stderr: Channel = { fd: 2, stream: () => process.stderr, streamed: false, gone: false, dropped: 0 };

/** What a long-running command holds for a reader that is not reading; past it, lines are dropped. */
const MAX_BACKLOG = 1024 * 1024;
/** How long a long-running command's exit waits for such a reader. */
const EXIT_WAIT_MS = 2000;
let neverBlock = false;
/** A long-running command's last act before process.exit(). */
let lastAct: (() => void) | undefined;

/** A write failure other than a departed reader (a full disk under `> file`), reported at exit. */
let failure: NodeJS.ErrnoException | undefined;

/** Interrupted writes are retried; a descriptor interrupted this often is treated as failed. */
const MAX_INTERRUPTIONS = 100;

export const writeStdout = (text: string): void => write(stdout, text);
export const writeStderr = (text: string): void => write(stderr, text);

/**
 * Called first by a command that runs until stopped: from now on no write blocks. `beforeExit` runs
 * once everything is written, right before process.exit().
 */
export function outputNeverBlocks(beforeExit?: () => void): void {
  neverBlock = true;
  lastAct = beforeExit;
}

function write(channel: Channel, text: string): void {
  if (channel.gone || !text) return;
  if (neverBlock && !channel.streamed) startStream(channel);
  if (channel.streamed) {
    writeStream(channel, text);
    return;
  }
  const bytes = Buffer.from(text);
  let offset = 0;
  let interruptions = 0;
  // Each turn writes at least one byte, or hands the rest over, or stops.
  while (offset < bytes.length) {
    let written: number;
    try {
      written = writeSync(channel.fd, bytes, offset);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EINTR' && ++interruptions < MAX_INTERRUPTIONS) continue;
      if (code === 'EAGAIN') written = 0;
      else {
        channel.gone = true;
        if (code !== 'EPIPE') failure ??= error as NodeJS.ErrnoException;
        return;
      }
    }
    if (written === 0) {
      handOver(channel, bytes.subarray(offset));
      return;
    }
    offset += written;
  }
}

function handOver(channel: Channel, rest: Buffer): void {
  startStream(channel);
  channel.stream().write(rest);
}

function startStream(channel: Channel): void {
  channel.streamed = true;
  // Without a listener an EPIPE on the stream is an uncaught exception with a stack.
  channel.stream().on('error', (error: NodeJS.ErrnoException) => {
    channel.gone = true;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') failure ??= error;
  });
}

function writeStream(channel: Channel, text: string): void {
  const stream = channel.stream();
  if (!neverBlock || stream.writableLength <= MAX_BACKLOG) return void stream.write(text);
  // Said once the reader has taken the backlog ('drain'), so the gap in the log is visible.
  if (channel.dropped++ === 0) {
    stream.once('drain', () => {
      const note = `ddedge: ${channel.dropped} lines of output dropped: the reader was not keeping up\n`;
      channel.dropped = 0;
      stream.write(note);
    });
  }
}

function drained(channel: Channel): Promise<void> {
  return new Promise((resolve) => {
    if (!channel.streamed) return resolve();
    const stream = channel.stream();
    if (channel.gone || stream.destroyed || stream.writableLength === 0) return resolve();
    // Callbacks run in order, so this one runs once everything written before it is out
    // (or with an error when the reader leaves meanwhile; 'close' covers a destroy).
    stream.once('close', () => resolve());
    stream.write('', () => resolve());
  });
}

/** Exits with `code` once everything written has left the process. */
export async function exitAfterOutput(code: number): Promise<never> {
  // A long-running command waits for a reader that is not reading only so long.
  const deadline = neverBlock ? new Promise<void>((resolve) => setTimeout(resolve, EXIT_WAIT_MS)) : undefined;
  const out = (...channels: Channel[]) =>
    Promise.race([Promise.all(channels.map(drained)), ...(deadline ? [deadline] : [])]);
  await out(stdout, stderr);
  // A failed write to a stream reports its error on a later tick.
  if (stdout.streamed || stderr.streamed) await new Promise((resolve) => setImmediate(resolve));
  if (failure && !stderr.gone) {
    writeStderr(`ddedge: could not write the output: ${failure.code ?? failure.message}\n`);
    await out(stderr);
  }
  lastAct?.();
  // Output that could not be written (a full disk) is a failure to retry later, as a full disk
  // is elsewhere; a command that failed already keeps its own code.
  process.exit(failure && code === 0 ? ExitCode.transient : code);
}
