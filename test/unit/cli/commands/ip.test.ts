// ddedge ip: the address detection alone, nothing sent; exit 6 when no address is known.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, runMain, tempDir } from '../../../helpers/cli.js';

function addressFile(text: string): string {
  const path = join(tempDir('ddedge-ip-'), 'wan');
  writeFileSync(path, text);
  return path;
}

describe('ddedge ip', () => {
  it('prints the address a file: source holds', async () => {
    const run = await runMain(['ip', '--ip-source', `file:${addressFile('81.0.2.15\n')}`], baseEnv());
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('81.0.2.15\n');
  });

  it('prints an address given with --ip as it is, and says it was given (JSON)', async () => {
    const run = await runMain(['ip', '--ip', '81.0.2.16', '--json'], baseEnv());
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      addresses: [{ family: 'IPv4', address: '81.0.2.16', given: true, quorum: 2, sources: [] }],
    });
  });

  it('exit 6 with the reason when the source holds no address', async () => {
    const path = addressFile('no address here\n');
    const run = await runMain(['ip', '--ip-source', `file:${path}`, '--json'], baseEnv());
    expect(run.code).toBe(6);
    const [report] = JSON.parse(run.stdout).addresses;
    expect(report).toMatchObject({ family: 'IPv4', address: null, given: false });
    expect(report.error).toContain(path);
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('does not detect the "server" source, which the provider learns during an update', async () => {
    const run = await runMain(['ip', '--ip-source', 'server', '--json'], baseEnv());
    expect(run.code).toBe(6);
    expect(JSON.parse(run.stdout).addresses[0].error).toContain('learnt by the provider during an update');
  });
});
