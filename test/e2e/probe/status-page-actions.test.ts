// The daemon's "update now" spends no call budget it should not: it runs at most once every
// 30 s whoever asks (a press within that time is answered 429 with when it can run again, and
// runs nothing), and its cycle keeps a record the provider refused to that record's backoff
// (SIGUSR1 still tries it again).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const daemons: ReturnType<typeof startDist>[] = [];
afterEach(async () => {
  for (const d of daemons.splice(0)) {
    d.kill('SIGTERM');
    await d.result;
  }
});

describe('"update now" on the daemon\'s page', () => {
  it('runs once in 30 s however often it is pressed, and its cycle leaves a refused record to its backoff', async () => {
    const addressFile = join(tempDir(), 'address');
    writeFileSync(addressFile, '81.0.2.15\n');
    const env = agentEnv(sandbox, {
      DDEDGE_IP_SOURCES: `file:${addressFile}`,
      DDEDGE_INTERVAL: '1h',
      // The second host is not in the zone: the provider refuses it, and it is held back from then on.
      DDEDGE_HOSTS: 'home.example.com,hmoe.example.com',
    });
    const daemon = startDist(['daemon', '--listen', '127.0.0.1:0'], env);
    daemons.push(daemon);
    let stderr = '';
    daemon.stderr!.on('data', (d) => (stderr += d));
    const log = await waitForOutput(daemon, 'stderr', (t) => /at (http:\S+)\/\n/.test(t) && /retrying in/.test(t));
    const url = /at (http:\S+)\/\n/.exec(log)![1]!;
    const refusedCalls = sandbox.calls.get('dyndns');
    const csrf = /name="csrf" value="([^"]+)"/.exec(await (await fetch(`${url}/`)).text())![1]!;
    const press = () =>
      fetch(`${url}/update-now`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: `csrf=${encodeURIComponent(csrf)}`,
      });
    const done = waitForOutput(daemon, 'stderr', (t) => /update now \(status page\): cycle done/.test(t));
    expect((await press()).status).toBe(303);
    await done;
    // The button's cycle sent nothing: home is unchanged, and hmoe waits for its backoff.
    expect(sandbox.calls.get('dyndns')).toBe(refusedCalls);
    const again = await Promise.all(Array.from({ length: 10 }, press));
    expect(again.map((r) => r.status)).toEqual(Array(10).fill(429));
    expect(Number(again[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await again[0]!.text()).toMatch(
      /^not run: "update now" last ran at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC and runs at most once every 30 s; it can run again at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC \(in \d+ s\)\n$/,
    );
    expect(sandbox.calls.get('dyndns')).toBe(refusedCalls);
    expect(stderr.match(/update now \(status page\): running a cycle now/g)).toHaveLength(1);
    expect(stderr).toMatch(/hmoe\.example\.com A: not sent: the provider refused it 1 time\b/);
    // A signal from whoever runs the daemon still tries the refused record again.
    const signalled = waitForOutput(daemon, 'stderr', (t) => /SIGUSR1: cycle done/.test(t));
    daemon.kill('SIGUSR1');
    await signalled;
    expect(sandbox.calls.get('dyndns')).toBe(refusedCalls! + 1);
  });
});
