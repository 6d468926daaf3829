// Hostile zone files: huge lines, a million tokens, a million errors, control characters.
// Each ends in a clear error (or a plain reading) with the memory of a bounded list of
// problems, never a hang or a message as large as the file.
import { describe, expect, it } from 'vitest';
import { readMasterFile } from '../../../../src/zone/file/master-reader.js';
import { ZoneFileError } from '../../../../src/zone/zone-file-error.js';

const read = (text: string) => readMasterFile(text, { zone: 'example.com', file: 'z' });
const failure = (text: string): ZoneFileError => {
  try {
    read(text);
  } catch (error) {
    if (error instanceof ZoneFileError) return error;
    throw error;
  }
  throw new Error('the file was read without an error');
};

describe('hostile zone files', () => {
  it('a 16-MB TXT line: refused as more than a record holds, in a short message', () => {
    const error = failure(`big TXT "${'x'.repeat(16 * 1024 * 1024)}"\nok A 192.0.2.1\n`);
    expect(error.message).toMatch(
      /^z:1:9: TXT data of 16,843,010 bytes with its string lengths is more than a record holds \(65,535\)$/,
    );
  });

  it('a 1-MB name: not a host name, quoted in at most 60 characters', () => {
    const error = failure(`${'a'.repeat(1024 * 1024)} A 192.0.2.1\n`);
    expect(error.message).toBe(`z:1:1: "${'a'.repeat(60)}…" is not a host name`);
  });

  it('a million tokens in one entry: one error, the entry left out, the rest read', () => {
    const error = failure(`many TXT ( ${'"x" '.repeat(1_000_000)})\nbad A 300.0.0.1\n`);
    expect(error.problems.map((p) => `${p.line}:${p.column}: ${p.reason}`)).toEqual([
      `1:${12 + (65_536 - 2) * 4}: more than 65,536 fields in one entry (no record has so many; is a ")" missing?)`,
      '2:7: "300.0.0.1" is not an IPv4 address (an A record holds one)',
    ]);
  });

  it('a million tokens on one line without parentheses: the same', () => {
    expect(failure(`many TXT ${'x '.repeat(1_000_000)}\n`).message).toMatch(
      /^z:1:\d+: more than 65,536 fields in one entry/,
    );
  });

  it('a million bad lines: 20 listed, reading stops at the 1,000th', () => {
    const error = failure('h A 300.0.0.1\n'.repeat(1_000_000));
    expect(error.problems).toHaveLength(20);
    expect(error.total).toBe(1000);
    expect(error.message.split('\n').at(-1)).toBe('… and 980 more errors in z (reading stopped at the 1,000th)');
  });

  it('an unclosed "(" swallows the rest of the file, as in BIND: an error at the "(", and where the entry grew too long', () => {
    const error = failure(`a TXT ( "x"\n${'h A 192.0.2.1\n'.repeat(100_000)}`);
    expect(error.message).toBe(
      'z:1:7: "(" is not closed\nz:21846:3: more than 65,536 fields in one entry (no record has so many; is a ")" missing?)',
    );
  });

  it('an unclosed quote is an error on its own line only', () => {
    expect(failure('a TXT "open\nb A 192.0.2.1\nc A x\n').message).toBe(
      'z:1:7: a quoted string is not closed before the end of the line\nz:3:5: "x" is not an IPv4 address (an A record holds one)',
    );
  });

  it('control characters and terminal escapes in names reach the message as \\DDD', () => {
    const message = failure('a\x1b[2Jb A 192.0.2.1\nc\x00d A 192.0.2.1\n').message;
    expect(message).toBe('z:1:1: "a\\027[2Jb" is not a host name\nz:2:1: "c\\000d" is not a host name');
  });

  it('a no-break space between fields is named', () => {
    expect(failure('www\u00a0A 192.0.2.1\n').message).toMatch(
      /^z:1:4: unexpected U\+00A0 \(a blank that is not a space or tab\)/,
    );
  });

  it('50,000 records at one name: read, each once (no quadratic step to wait for)', () => {
    const lines = Array.from({ length: 50_000 }, (_, i) => `many TXT "value ${i}"`);
    const zone = read(`${lines.join('\n')}\n${lines.slice(0, 10).join('\n')}\n`);
    expect(zone.records).toHaveLength(50_000);
  });
});
