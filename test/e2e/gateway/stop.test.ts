// SIGTERM while an update is being written: the gateway finishes it, answers it, and exits 0;
// the provider holds the whole update, not half of it.
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { parseFault } from '../../../src/sandbox/faults.js';
import { startSandbox } from '../../../src/sandbox/server.js';
import { baseEnv, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';

const NSUPDATE = requireTool('nsupdate', 'bind9-dnsutils');

it.skipIf(!NSUPDATE)('finishes and answers the update in flight at SIGTERM, then exits 0', async () => {
  const sandbox = await startSandbox({});
  const dir = tempDir();
  const text = keygenText('admin');
  writeFileSync(join(dir, 'keys'), `${text}grant "admin" zonesub;\n`, { mode: 0o600 });
  const gateway = startDist(
    [
      'gateway',
      '--zone',
      'example.com',
      '--keys',
      join(dir, 'keys'),
      '--dns-listen',
      '127.0.0.1:0',
      '--state-dir',
      join(dir, 'state'),
    ],
    baseEnv({ DDEDGE_API_URL: sandbox.url, DDEDGE_API_USER: 'demo-user', DDEDGE_API_PASSWORD: 'demo-api-password' }),
  );
  try {
    const port = Number(
      /on 127\.0\.0\.1:(\d+)/.exec(
        await waitForOutput(gateway, 'stderr', (t) => /on 127\.0\.0\.1:\d+/.test(t), 15_000),
      )![1],
    );
    sandbox.faults.push(parseFault('service/dnscreate=slow:1500x2'));
    const secret = /secret "([^"]+)"/.exec(text)![1];
    const answered = new Promise<{ code: number; out: string }>((resolve) => {
      const child = execFile(
        'nsupdate',
        ['-t', '10', '-y', `hmac-sha256:admin:${secret}`],
        { timeout: 20_000 },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, out: stdout + stderr }),
      );
      child.stdin!.end(
        `server 127.0.0.1 ${port}\nupdate add late.example.com 60 A 192.0.2.81\nupdate add late.example.com 60 A 192.0.2.82\nsend\n`,
      );
    });
    // SIGTERM once the provider has the first write in hand (bounded wait).
    for (let i = 0; i < 200 && !sandbox.calls.get('service/dnscreate'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(sandbox.calls.get('service/dnscreate')).toBeGreaterThan(0);
    gateway.kill('SIGTERM');
    const result = await answered;
    expect(result.code, result.out).toBe(0);
    expect((await gateway.result).code).toBe(0);
    const late = sandbox.model.services[0]!.dns.filter((e) => e.name === 'late.example.com')
      .map((e) => e.value)
      .sort();
    expect(late).toEqual(['192.0.2.81', '192.0.2.82']);
  } finally {
    gateway.kill('SIGKILL');
    await sandbox.close();
  }
});
