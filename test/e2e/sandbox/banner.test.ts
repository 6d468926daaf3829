// The sandbox's banner, a newcomer's first view of the emulator: every record of its zones, and
// the dynamic DNS URLs written out one by one, each working as pasted.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/server.js';
import { baseEnv, runDist, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';

let sandbox: ReturnType<typeof startDist>;
let banner: string;
beforeAll(async () => {
  sandbox = startDist(['sandbox', '--port', '0'], baseEnv());
  banner = await waitForOutput(
    sandbox,
    'stdout',
    (t) => t.includes('try:\n') && t.endsWith('\n') && t.includes('--ip 81.0.2.15\n'),
  );
});
afterAll(async () => {
  sandbox.kill('SIGTERM');
  await sandbox.result;
});

describe('ddedge sandbox, as it starts', () => {
  it('lists every record of every zone', async () => {
    const fresh = await startSandbox();
    const model = fresh.model;
    await fresh.close();
    for (const service of model.services) {
      expect(banner).toContain(`  ${service.name}:\n`);
      for (const e of service.dns)
        expect(banner).toContain(`    ${e.name} ${e.type}${e.priority !== '-' ? ` ${e.priority}` : ''} ${e.value}\n`);
    }
  });

  it('writes out each dynamic DNS URL, and each works as pasted', async () => {
    const urls = [...banner.matchAll(/^ +(http:\/\/127\.0\.0\.1:\d+\/(json|xml|plain)\/)$/gm)].map((m) => m[1]!);
    expect(urls.map((u) => u.split('/').at(-2))).toEqual(['json', 'xml', 'plain']);
    expect(banner).not.toContain('{json,xml,plain}');
    for (const url of urls) {
      const run = await runDist(
        ['update', '--host', 'home.example.com', '--ip', '81.0.2.15'],
        baseEnv({
          DDEDGE_DYNDNS_URL: url,
          DDEDGE_DYNDNS_USER: 'demo-user',
          DDEDGE_DYNDNS_KEY: 'demo-dyndns-key',
          DDEDGE_STATE_DIR: tempDir(),
        }),
      );
      expect(run.code, `${url}: ${run.stderr}`).toBe(0);
    }
  });

  it('gives a command to try that works as pasted, with a state directory of its own', async () => {
    const tryBlock = banner.slice(banner.indexOf('try:\n') + 'try:\n'.length).split('\nfaults:')[0]!;
    expect(tryBlock).toContain('DDEDGE_STATE_DIR=$(mktemp -d) node ');
    expect(tryBlock).not.toContain('/tmp/ddedge-demo');
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn('bash', ['-c', tryBlock], { env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('close', (code) => resolve({ code, output }));
    });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/home\.example\.com A 81\.0\.2\.15 (updated|unchanged)/);
  });
});
