// The built agent with sources shaped as the defaults (OpenDNS's A question and Google's TXT
// question, each at its own DNS server, then HTTPS echoes), all on loopback: a cycle whose DNS
// answers agree asks no HTTPS source and loads no TLS module; a DNS answer that fails or
// disagrees sends the cycle to the HTTPS echoes, whose answers settle the quorum.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv, providerCalls } from '../../helpers/agent-env.js';
import { DIST, runDist, tempDir, type RunResult } from '../../helpers/cli.js';
import { startDnsServer } from '../../helpers/dns-server.js';
import { startServer, tlsFiles, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox();
let closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.map((close) => close()));
  closers = [];
});

/** Node's own modules a run loaded by its exit, as Node lists them ("NativeModule tls"). */
const preload = (() => {
  const file = join(tempDir('ddedge-builtins-'), 'builtins.cjs');
  writeFileSync(
    file,
    "process.on('exit', () => process.stderr.write('\\nbuiltins ' + JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'));\n",
  );
  return file;
})();

function runWithBuiltins(args: string[], env: Record<string, string>): Promise<RunResult & { builtins: string[] }> {
  const child = spawn(process.execPath, ['--require', preload, DIST, ...args], {
    env,
    cwd: tempDir('ddedge-cwd-'),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      const line = /\nbuiltins (.*)\n/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/\nbuiltins .*\n/, ''),
        builtins: line ? JSON.parse(line[1]!) : [],
      });
    }),
  );
}

async function defaultsLike(opendns: string | undefined, google: string | undefined) {
  const dnsA = await startDnsServer(opendns === undefined ? {} : { A: { 'myip.opendns.com': opendns } });
  const dnsB = await startDnsServer(google === undefined ? {} : { TXT: { 'o-o.myaddr.l.google.com': google } });
  const echoes: TestServer[] = [
    await startServer('81.0.2.15\n', { tls: true }),
    await startServer('ip=81.0.2.15\n', { tls: true }),
  ];
  closers.push(dnsA.close, dnsB.close, ...echoes.map((e) => e.close));
  const sources = [
    `dns:myip.opendns.com@${dnsA.server}`,
    `dns-txt:o-o.myaddr.l.google.com@${dnsB.server}`,
    ...echoes.map((e) => `url:${e.url}`),
  ];
  const env = agentEnv(sandbox, { DDEDGE_IP_SOURCES: sources.join(','), NODE_EXTRA_CA_CERTS: tlsFiles().ca });
  return { env, httpsRequests: () => echoes.reduce((sum, e) => sum + e.hits, 0) };
}

const TLS_MODULES = ['tls', '_tls_wrap', '_tls_common', 'https'];

describe('DNS sources first, in the built agent', () => {
  it('an unchanged address from two agreeing DNS answers: no HTTPS request, no TLS module loaded', async () => {
    const { env, httpsRequests } = await defaultsLike('81.0.2.15', '81.0.2.15');
    expect(await runDist(['update', '--ip', '81.0.2.15'], env)).toMatchObject({ code: 0 });
    const calls = providerCalls(sandbox);
    const run = await runWithBuiltins(['update'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 unchanged\n' });
    expect(run.builtins).toContain('dgram');
    expect(run.builtins.filter((m) => TLS_MODULES.includes(m))).toEqual([]);
    // A question's random ID comes from /dev/urandom: node:crypto would load some 30 modules.
    expect(run.builtins).not.toContain('crypto');
    expect(httpsRequests()).toBe(0);
    expect(providerCalls(sandbox)).toBe(calls);
  });

  it('the DNS answers disagree: the HTTPS echoes are asked and their quorum decides', async () => {
    const { env, httpsRequests } = await defaultsLike('81.0.2.15', '81.0.2.99');
    const run = await runWithBuiltins(['update'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
    expect(httpsRequests()).toBeGreaterThan(0);
    expect(run.builtins).toContain('tls');
  });

  it('a DNS source that fails (NXDOMAIN): the HTTPS echoes are asked', async () => {
    const { env, httpsRequests } = await defaultsLike(undefined, '81.0.2.15');
    const run = await runWithBuiltins(['update'], env);
    expect(run).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
    expect(httpsRequests()).toBeGreaterThan(0);
  });

  it('no address reaches the quorum: exit 6, nothing sent', async () => {
    const { env } = await defaultsLike('81.0.2.16', '81.0.2.17');
    const calls = providerCalls(sandbox);
    const run = await runDist(['update', '--quorum', '3'], env);
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/disagree/);
    expect(providerCalls(sandbox)).toBe(calls);
  });
});
