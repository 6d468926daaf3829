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
import type { Writable } from 'node:stream';
import { writeSync } from 'node:fs';
import { ExitCode } from '../errors.js';

interface Channel {
  fd: 1 | 2;
  stream(): Writable;
  /** Set once a write met a full non-blocking descriptor: the stream carries the rest. */
  streamed: boolean;
  /** The reader has gone (EPIPE) or the output cannot be written: drop what follows. */
  gone: boolean;
}

const stdout: Channel = { fd: 1, stream: () => process.stdout, streamed: false, gone: false };
const stderr: Channel = { fd: 2, stream: () => process.stderr, streamed: false, gone: false };

/** A write failure other than a departed reader (a full disk under `> file`), reported at exit. */
let failure: NodeJS.ErrnoException | undefined;

/** Interrupted writes are retried; a descriptor interrupted this often is treated as failed. */
const MAX_INTERRUPTIONS = 100;

export const writeStdout = (text: string): void => write(stdout, text);
export const writeStderr = (text: string): void => write(stderr, text);

function write(channel: Channel, text: string): void {
  if (channel.gone || !text) return;
  if (channel.streamed) return void channel.stream().write(text);
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
  channel.streamed = true;
  const stream = channel.stream();
  // Without a listener an EPIPE on the stream is an uncaught exception with a stack.
  stream.on('error', (error: NodeJS.ErrnoException) => {
    channel.gone = true;
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') failure ??= error;
  });
  stream.write(rest);
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
  await Promise.all([drained(stdout), drained(stderr)]);
  // A failed write to a stream reports its error on a later tick.
  if (stdout.streamed || stderr.streamed) await new Promise((resolve) => setImmediate(resolve));
  if (failure && !stderr.gone) {
    writeStderr(`ddedge: could not write the output: ${failure.code ?? failure.message}\n`);
    await drained(stderr);
  }
  // Output that could not be written (a full disk) is a failure to retry later, as a full disk
  // is elsewhere; a command that failed already keeps its own code.
  process.exit(failure && code === 0 ? ExitCode.transient : code);
}
