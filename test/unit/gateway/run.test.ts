// The gateway run in this process (main(['gateway'])), in front of the sandbox: it answers
// dyndns2 updates through its door and writes them to the provider, shows its status page,
// and stops on SIGTERM with exit 0.
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Io } from '../../../src/cli/io.js';
import { main } from '../../../src/cli/main.js';
import { parseFault } from '../../../src/sandbox/faults.js';
import { withApi } from '../../helpers/agent-env.js';
import { baseEnv, HANG_BOUND_MS, tempDir } from '../../helpers/cli.js';
import { writeKeysFile } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();

interface Started {
  door: string;
  endpoint: string;
  secret: string;
  stderr: () => string;
  stop(): Promise<number>;
}

const running: Started[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.stop()));
});

async function startGateway(): Promise<Started> {
  const dir = tempDir('ddedge-gw-unit-');
  const keys = writeKeysFile(
    [
      {
        name: 'router',
        rules: ['grant "router" name home.example.com A AAAA;', 'grant "router" name nas.example.com A;'],
      },
    ],
    join(dir, 'gateway.keys'),
  );
  let stderr = '';
  const io: Io = {
    stdout: () => undefined,
    stderr: (text) => {
      stderr += text;
    },
    env: baseEnv(withApi(sandbox)),
    cwd: dir,
    isTTY: false,
  };
  const before = process.listeners('SIGTERM');
  const args = [
    'gateway',
    '--zone',
    'example.com',
    '--keys',
    keys.file,
    '--dns-listen',
    '127.0.0.1:0',
    '--primary-name',
    'gw.example.com',
    '--state-dir',
    join(dir, 'state'),
  ];
  const exit = main([...args, '--listen', '127.0.0.1:0', '--dyndns2-listen', '127.0.0.1:0'], io);
  let ended = false;
  void exit.finally(() => (ended = true));
  const door = /answering dyndns2 updates at (http:\/\/127\.0\.0\.1:\d+)\/nic\/update/;
  const endpoint = /serving \/healthz, \/metrics and \/status at (http:\/\/127\.0\.0\.1:\d+)\//;
  await vi.waitFor(
    () => {
      if (ended) throw new Error(`the gateway stopped: ${stderr}`);
      expect(stderr).toMatch(/answering DNS for example\.com/);
      expect(stderr).toMatch(door);
      expect(stderr).toMatch(endpoint);
    },
    // The first start in a worker loads the gateway's code: slow under coverage on a busy machine.
    { timeout: HANG_BOUND_MS, interval: 20 },
  );
  const onStop = process.listeners('SIGTERM').find((l) => !before.includes(l))!;
  const started: Started = {
    door: door.exec(stderr)![1]!,
    endpoint: endpoint.exec(stderr)![1]!,
    secret: keys.secrets.get('router')!,
    stderr: () => stderr,
    stop: async () => {
      running.splice(running.indexOf(started), 1);
      (onStop as () => void)();
      return exit;
    },
  };
  running.push(started);
  return started;
}

const update = (gateway: Started, query: string, password = gateway.secret) =>
  fetch(`${gateway.door}/nic/update?${query}`, {
    headers: { authorization: `Basic ${Buffer.from(`router:${password}`).toString('base64')}` },
  });

const zoneHolds = (name: string, type = 'A'): string[] =>
  sandbox.model.services
    .find((s) => s.name === 'example.com')!
    .dns.filter((e) => e.name === name && e.type === type)
    .map((e) => e.value);

describe('the gateway in this process', () => {
  it('writes a dyndns2 update to the provider, answers the same one nochg, and refuses a wrong password', async () => {
    const gateway = await startGateway();
    const good = await update(gateway, 'hostname=home.example.com&myip=81.0.2.15');
    expect(await good.text()).toBe('good 81.0.2.15\n');
    expect(zoneHolds('home.example.com')).toEqual(['81.0.2.15']);
    expect(await (await update(gateway, 'hostname=home.example.com&myip=81.0.2.15')).text()).toBe('nochg 81.0.2.15\n');
    const wrong = await update(gateway, 'hostname=home.example.com&myip=81.0.2.16', 'not-the-secret');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toBe('badauth\n');
    expect(zoneHolds('home.example.com')).toEqual(['81.0.2.15']);
    expect(await gateway.stop()).toBe(0);
  });

  it('makes both names of one request or neither: a write refused half-way is undone', async () => {
    const gateway = await startGateway();
    const before = { home: zoneHolds('home.example.com'), nas: zoneHolds('nas.example.com') };
    // home.example.com's address is changed in place, then nas.example.com's create is refused: the change is undone.
    sandbox.faults.push(parseFault('service/dnscreate=refusex1'));
    const answer = await (await update(gateway, 'hostname=home.example.com,nas.example.com&myip=81.0.2.20')).text();
    expect(answer).not.toContain('good');
    expect({ home: zoneHolds('home.example.com'), nas: zoneHolds('nas.example.com') }).toEqual(before);
  });

  it('settles a write whose answer was lost by reading the zone again', async () => {
    const gateway = await startGateway();
    sandbox.faults.push(parseFault('service/dnscreate=lost-answerx1'));
    const answer = await (await update(gateway, 'hostname=nas.example.com&myip=81.0.2.30')).text();
    expect(sandbox.faults.at(-1)!.remaining).toBe(0);
    expect(answer).toBe('good 81.0.2.30\n');
    expect(zoneHolds('nas.example.com')).toEqual(['81.0.2.30']);
  });

  it('shows the zones it serves on its status page', async () => {
    const gateway = await startGateway();
    const page = await fetch(`${gateway.endpoint}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('example.com');
    expect(html).toContain('router');
  });
});
