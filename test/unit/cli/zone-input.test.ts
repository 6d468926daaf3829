// `zone plan -`: standard input is held to a zone file's cap and UTF-8 rule while it is read, and
// what goes wrong is named "standard input".
import { describe, expect, it } from 'vitest';
import { FileTooLarge, readCappedUtf8Stream } from '../../../src/config/capped-file.js';
import { readZoneInput } from '../../../src/cli/zone-input.js';
import { ZONE_FILE_MAX_BYTES } from '../../../src/zone/apply/zone-files.js';

/** Standard input as a pipe (or, `isFile`, a regular file redirected), giving `stream`. */
const pipe = (stream: () => AsyncIterable<Uint8Array | string>, isFile = false) => ({
  kind: () => ({
    stats: {
      isDirectory: () => false,
      isCharacterDevice: () => false,
      isBlockDevice: () => false,
      isFile: () => isFile,
    },
    terminal: false,
  }),
  stream,
});

/** An endless stream of `chunk`, counting what was taken from it and whether it was ended. */
function endless(chunk: Buffer) {
  const seen = { chunks: 0, ended: false };
  async function* stream() {
    try {
      for (;;) {
        seen.chunks++;
        yield chunk;
      }
    } finally {
      seen.ended = true;
    }
  }
  return { stream, seen };
}

describe('a zone from standard input', () => {
  it('an endless stream is refused once past the cap, having read no more than the cap and one chunk', async () => {
    const { stream, seen } = endless(Buffer.alloc(1000, 0x61));
    await expect(readCappedUtf8Stream(stream(), 10_000)).rejects.toBeInstanceOf(FileTooLarge);
    expect(seen).toEqual({ chunks: 11, ended: true });
  });

  it('is read whole up to the cap, in chunks of bytes or text', async () => {
    async function* pieces() {
      yield Buffer.from('caf');
      yield Buffer.from([0xc3]);
      yield new Uint8Array([0xa9]);
      yield '!';
    }
    await expect(readCappedUtf8Stream(pieces(), 6)).resolves.toBe('café!');
    await expect(readCappedUtf8Stream(pieces(), 5)).rejects.toBeInstanceOf(FileTooLarge);
  });

  it('`-` holds standard input to a zone file cap, naming it', async () => {
    const { stream, seen } = endless(Buffer.alloc(1024 * 1024, 0x61));
    await expect(readZoneInput('-', '/', pipe(stream))).rejects.toThrow(
      `standard input: larger than ${ZONE_FILE_MAX_BYTES / 1024 / 1024} MiB, too large for a zone file`,
    );
    expect(seen).toEqual({ chunks: ZONE_FILE_MAX_BYTES / 1024 / 1024 + 1, ended: true });
  });

  it('`-` refuses bytes that are not UTF-8, naming standard input, its line and column', async () => {
    async function* latin1() {
      yield Buffer.from([0x61, 0x0a, 0x62, 0xe9, 0x0a]);
    }
    await expect(readZoneInput('-', '/', pipe(latin1))).rejects.toThrow(
      /^standard input:2:2: a byte that is not UTF-8/,
    );
  });

  it('`-` refuses a standard input that is a folder or a device (a closed one is /dev/null), as a path is refused', async () => {
    const stdin = () => {
      throw new Error('standard input was read');
    };
    const kind = (what: Partial<Record<'dir' | 'char' | 'block' | 'tty', boolean>>) => () => ({
      stats: {
        isDirectory: () => !!what.dir,
        isCharacterDevice: () => !!what.char,
        isBlockDevice: () => !!what.block,
        isFile: () => false,
      },
      terminal: !!what.tty,
    });
    const input = (stream: () => AsyncIterable<string>, what: Parameters<typeof kind>[0]) => ({
      kind: kind(what),
      stream,
    });
    await expect(readZoneInput('-', '/', input(stdin, { dir: true }))).rejects.toThrow(
      /^standard input: a folder, not a zone file$/,
    );
    for (const device of [{ char: true }, { block: true }])
      await expect(readZoneInput('-', '/', input(stdin, device))).rejects.toThrow(
        /^standard input: a device, not a zone file \(a closed standard input is \/dev\/null\)/,
      );
    async function* typed() {
      yield '$ORIGIN example.com.\n';
    }
    // A terminal is a device too, and what is typed or pasted there is a zone like any other; the
    // person at it is told how to end it (a command that waits without a word looks hung).
    const told: string[] = [];
    await expect(
      readZoneInput('-', '/', input(typed, { char: true, tty: true }), (text) => told.push(text)),
    ).resolves.toEqual({ text: '$ORIGIN example.com.\n', shown: 'standard input' });
    expect(told).toEqual(['reading the zone from the terminal: type or paste it, then Ctrl-D on a line of its own\n']);
    await readZoneInput('-', '/', pipe(typed), (text) => told.push(text));
    expect(told).toHaveLength(1);
  });

  it('a path is read as a file, never standard input', async () => {
    const stdin = () => {
      throw new Error('standard input was read');
    };
    await expect(readZoneInput('no-such.zone', '/nonexistent', pipe(stdin))).rejects.toThrow(
      /^no-such\.zone: cannot be read: /,
    );
  });

  it('nothing at all from a pipe (a writer that failed) is refused; an empty file given as standard input is a zone', async () => {
    async function* nothing() {}
    async function* blanks() {
      yield ' \n\t\n';
    }
    for (const stream of [nothing, blanks])
      await expect(readZoneInput('-', '/', pipe(stream))).rejects.toThrow(
        /^standard input: nothing was read from the pipe \(did the command that writes the zone fail\?\); nothing was planned/,
      );
    const file = pipe(nothing, true);
    await expect(readZoneInput('-', '/', file)).resolves.toEqual({ text: '', shown: 'standard input' });
  });
});
