// A real client that was not written here: Debian's ddclient, its `dondominio` protocol
// pointed at the sandbox over HTTPS with the test CA (run by helpers/ddclient.ts, which CI
// requires).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import type { PlainStyle } from '../../../src/sandbox/dyndns.js';
import { zoneValue } from '../../helpers/agent-env.js';
import { tlsFiles } from '../../helpers/servers.js';
import { DDCLIENT, runDdclient, type DdclientRun } from '../../helpers/ddclient.js';

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

async function ddclient(plainStyle: PlainStyle, ip: string, key = 'demo-dyndns-key'): Promise<DdclientRun> {
  const files = tlsFiles();
  sandbox ??= await startSandbox({
    tls: { cert: readFileSync(files.cert, 'utf8'), key: readFileSync(files.key, 'utf8') },
    plainStyle,
  });
  return runDdclient([
    'ssl=yes',
    `ssl_ca_file=${files.ca}`,
    `use=ip, ip=${ip}`,
    'protocol=dondominio',
    `server=${new URL(sandbox.url).host}`,
    'login=demo-user',
    `password=${key}`,
    'home.example.com',
  ]);
}

describe.skipIf(!DDCLIENT)('ddclient against the sandbox', () => {
  it('reaches the zone over HTTPS, but misreads the spec\'s "OK / UPDATE: <ip>" answer as a failure', async () => {
    const run = await ddclient('update', '81.0.2.77');
    expect(zoneValue(sandbox!, 'home.example.com')).toBe('81.0.2.77');
    // ddclient 3.10 judges only the last line ("UPDATE: 81.0.2.77"), as the field notes warn.
    expect(run.failed, run.output).toBe(true);
    expect(run.output).toMatch(/Server said: 'UPDATE: 81\.0\.2\.77'/);
  });

  it('misreads "OK / IP:<ip>" the same way', async () => {
    const run = await ddclient('ip', '81.0.2.78');
    expect(zoneValue(sandbox!, 'home.example.com')).toBe('81.0.2.78');
    expect(run.failed, run.output).toBe(true);
  });

  it('accepts a lone "OK" (the address was already set)', async () => {
    await ddclient('update', '81.0.2.79');
    const run = await ddclient('update', '81.0.2.79');
    expect(run.success, run.output).toBe(true);
  });

  it('reports "ERROR / Incorrect data" for a wrong key, and the zone is unchanged', async () => {
    const run = await ddclient('update', '81.0.2.80', 'wrong-key');
    expect(run.failed, run.output).toBe(true);
    expect(run.output).toMatch(/Incorrect data/);
    expect(zoneValue(sandbox!, 'home.example.com')).toBe('192.0.2.20');
  });
});
