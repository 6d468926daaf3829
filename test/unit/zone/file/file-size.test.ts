// A zone file ddedge writes, it can read back (found by an attack: a zone over the reader's old
// 16 MiB cap was exported and backed up, and the backup could never be applied).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileTooLarge, NotUtf8, readCappedUtf8 } from '../../../../src/config/capped-file.js';
import { readableZoneText, ZONE_FILE_MAX_BYTES } from '../../../../src/zone/apply/zone-files.js';
import { withoutProviderLines, PROVIDER_GLUE } from '../../../../src/zone/file/provider-lines.js';

describe('zone file size', () => {
  it('a 20 MiB file is read whole, and a file past the cap is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddedge-size-'));
    const line = `t IN TXT "${'x'.repeat(240)}"\n`;
    const big = line.repeat(Math.ceil((20 * 1024 * 1024) / line.length));
    writeFileSync(join(dir, 'big.zone'), big);
    expect(readCappedUtf8(join(dir, 'big.zone'), ZONE_FILE_MAX_BYTES)).toBe(big);
    writeFileSync(join(dir, 'small.zone'), 'abc');
    expect(() => readCappedUtf8(join(dir, 'small.zone'), 2)).toThrow(FileTooLarge);
    expect(readCappedUtf8(join(dir, 'small.zone'), 3)).toBe('abc');
  });

  it('export and backups refuse to write what the reader would refuse, saying so', () => {
    expect(readableZoneText('a', 'zone export')).toBe('a');
    const tooLarge = 'x'.repeat(ZONE_FILE_MAX_BYTES + 1);
    expect(() => readableZoneText(tooLarge, 'zone export')).toThrow(
      /zone export: the zone as a file is 257 MiB, more than the 256 MiB ddedge reads back; nothing was written/,
    );
  });

  it('bytes that are not UTF-8 are named by line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddedge-utf8-'));
    writeFileSync(join(dir, 'l.zone'), Buffer.from([0x61, 0x0a, 0x62, 0xc3, 0xa9, 0xe9, 0x0a]));
    let error: unknown;
    try {
      readCappedUtf8(join(dir, 'l.zone'), 100);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(NotUtf8);
    expect(error).toMatchObject({ line: 2, column: 4 });
  });

  // Long lines of multi-byte characters, at and past 64 KiB (the size of a read from a pipe).
  it('characters of three and four bytes far into a file are read whole, and an error past them is placed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddedge-utf8-far-'));
    const far = 64 * 1024;
    for (const cut of [1, 2, 3]) {
      const euro = Buffer.from([0xe2, 0x82, 0xac]);
      const smile = Buffer.from([0xf0, 0x9f, 0x98, 0x80]);
      const before = Buffer.alloc(far - cut, 0x61);
      const text = Buffer.concat([before, euro, smile, Buffer.from('\nz\n')]);
      writeFileSync(join(dir, `cut-${cut}.zone`), text);
      expect(readCappedUtf8(join(dir, `cut-${cut}.zone`), ZONE_FILE_MAX_BYTES)).toBe(text.toString('utf8'));
      // The same file with a bad byte on the line after: named by its line and column.
      writeFileSync(join(dir, `bad-${cut}.zone`), Buffer.concat([text, Buffer.from([0x62, 0xff, 0x0a])]));
      expect(() => readCappedUtf8(join(dir, `bad-${cut}.zone`), ZONE_FILE_MAX_BYTES)).toThrow(
        expect.objectContaining({ line: 3, column: 2 }),
      );
    }
    // A character cut by the end of the file is not UTF-8, where it begins.
    writeFileSync(join(dir, 'end.zone'), Buffer.concat([Buffer.alloc(far, 0x61), Buffer.from([0xe2, 0x82])]));
    expect(() => readCappedUtf8(join(dir, 'end.zone'), ZONE_FILE_MAX_BYTES)).toThrow(
      expect.objectContaining({ line: 1, column: far + 1 }),
    );
  });

  it('the cap is exact: a file one byte over it is refused, one at it is read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ddedge-cap-'));
    const size = 3 * 64 * 1024 + 5;
    writeFileSync(join(dir, 'at.zone'), Buffer.alloc(size, 0x61));
    expect(readCappedUtf8(join(dir, 'at.zone'), size)).toHaveLength(size);
    expect(() => readCappedUtf8(join(dir, 'at.zone'), size - 1)).toThrow(FileTooLarge);
  });
});

describe('the provider lines of a complete export', () => {
  it('a record before a lone CR is not taken into the marked line after it (the lexer ends lines at CR, as BIND)', () => {
    const text = `mail 300 IN A 192.0.2.25\rns1 300 IN A 127.0.0.1 ; ${PROVIDER_GLUE}\n`;
    expect(withoutProviderLines(text)).toBe('mail 300 IN A 192.0.2.25\r\n');
  });
});
