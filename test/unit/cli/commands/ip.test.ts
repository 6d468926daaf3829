// ddedge ip: the address detection alone, nothing sent; exit 6 when no address is known.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../../src/cli/main.js';
import { tempDir } from '../../../helpers/cli.js';
import { collectingIo } from '../../../helpers/main-io.js';

function addressFile(text: string): string {
  const path = join(tempDir('ddedge-ip-'), 'wan');
  writeFileSync(path, text);
  return path;
}

describe('ddedge ip', () => {
  it('prints the address a file: source holds', async () => {
    const io = collectingIo();
    expect(await main(['ip', '--ip-source', `file:${addressFile('81.0.2.15\n')}`], io)).toBe(0);
    expect(io.out).toBe('81.0.2.15\n');
  });

  it('prints an address given with --ip as it is, and says it was given (JSON)', async () => {
    const io = collectingIo();
    expect(await main(['ip', '--ip', '81.0.2.16', '--json'], io)).toBe(0);
    expect(JSON.parse(io.out)).toEqual({ addresses: [{ family: 'IPv4', address: '81.0.2.16', given: true, quorum: 2, sources: [] }] });
  });

  it('exit 6 with the reason when the source holds no address', async () => {
    const path = addressFile('no address here\n');
    const io = collectingIo();
    expect(await main(['ip', '--ip-source', `file:${path}`, '--json'], io)).toBe(6);
    const [report] = JSON.parse(io.out).addresses;
    expect(report).toMatchObject({ family: 'IPv4', address: null, given: false });
    expect(report.error).toContain(path);
    expect(io.out.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('does not detect the "server" source, which the provider learns during an update', async () => {
    const io = collectingIo();
    expect(await main(['ip', '--ip-source', 'server', '--json'], io)).toBe(6);
    expect(JSON.parse(io.out).addresses[0].error).toContain('learnt by the provider during an update');
  });
});
