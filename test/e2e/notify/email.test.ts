// E-mail notifications against a real SMTP server (Debian's python3-aiosmtpd on 127.0.0.1):
// STARTTLS and AUTH when the server offers them (verified against the tests' CA), plain on
// loopback when it does not, the password never shown, wrong credentials a failure named.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { baseEnv, CANARY, runDist, tempDir } from '../../helpers/cli.js';
import { freePort } from '../../helpers/programs.js';
import { tlsFiles } from '../../helpers/servers.js';
import { waitUntil } from '../../helpers/wait.js';

const PYTHON = '/usr/bin/python3';
const SERVER = resolve(import.meta.dirname, '../../helpers/smtp-server.py');
const HAS_AIOSMTPD = existsSync(PYTHON) && existsSync('/usr/lib/python3/dist-packages/aiosmtpd');
if (!HAS_AIOSMTPD && process.env.DDEDGE_REQUIRE_TOOLS === '1')
  throw new Error('python3-aiosmtpd is required (DDEDGE_REQUIRE_TOOLS=1): apt-get install python3-aiosmtpd');

const running: ChildProcess[] = [];
afterEach(() => {
  for (const child of running.splice(0)) child.kill('SIGKILL');
});

/** A server on a free port; its messages land in the folder returned. */
async function smtpServer(secure: { user: string; password: string } | undefined) {
  const port = await freePort();
  const outdir = tempDir('ddedge-smtp-');
  const tls = tlsFiles();
  const args = secure ? [tls.cert, tls.key, secure.user, secure.password] : [];
  const child = spawn(PYTHON, [SERVER, String(port), outdir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.push(child);
  let said = '';
  child.stdout!.on('data', (d) => (said += d));
  child.stderr!.on('data', (d) => (said += d));
  await waitUntil(() => said.includes('listening') || child.exitCode !== null, 'the SMTP server to listen');
  if (!said.includes('listening')) throw new Error(`the SMTP server did not start: ${said}`);
  const messages = () =>
    readdirSync(outdir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(readFileSync(join(outdir, f), 'utf8')));
  return { port, messages };
}

const env = () => baseEnv({ NODE_EXTRA_CA_CERTS: tlsFiles().ca });

describe.skipIf(!HAS_AIOSMTPD)('e-mail notifications', () => {
  it('sends over STARTTLS with AUTH, from and to as given, and never shows the password', async () => {
    const server = await smtpServer({ user: 'alerts', password: CANARY });
    const url = `smtp://alerts:${CANARY}@127.0.0.1:${server.port}?from=ddedge@example.com&to=me@example.com,you@example.com`;
    const run = await runDist(['notify', 'test', url, '--log-level', 'debug'], env());
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout + run.stderr).not.toContain(CANARY);
    expect(run.stdout).toContain(`email at 127.0.0.1:${server.port}`);
    const [mail] = server.messages();
    expect(mail).toMatchObject({
      from: 'ddedge@example.com',
      to: ['me@example.com', 'you@example.com'],
      tls: true,
      auth: true,
    });
    expect(mail.data).toMatch(/^Subject: ddedge: test message/m);
    expect(mail.data).toMatch(/^Content-Type: text\/plain; charset=utf-8/m);
  });

  it('names the refusal of wrong credentials (exit 4), without the password', async () => {
    const server = await smtpServer({ user: 'alerts', password: 'right-one' });
    const url = `smtp://alerts:${CANARY}@127.0.0.1:${server.port}?from=ddedge@example.com&to=me@example.com`;
    const run = await runDist(['notify', 'test', url], env());
    expect(run.code).toBe(4);
    expect(run.stdout + run.stderr).toMatch(/refused the credentials: 535/);
    expect(run.stdout + run.stderr).not.toContain(CANARY);
    expect(server.messages()).toEqual([]);
  });

  it('sends in plain text to a loopback server that offers no TLS', async () => {
    const server = await smtpServer(undefined);
    const url = `smtp://127.0.0.1:${server.port}?from=ddedge@example.com&to=me@example.com`;
    const run = await runDist(['notify', 'test', url], env());
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(server.messages()).toMatchObject([{ tls: false, auth: false, to: ['me@example.com'] }]);
  });

  it('names a bad URL by its place among the URLs given, and sends none', async () => {
    const server = await smtpServer(undefined);
    const good = `smtp://127.0.0.1:${server.port}?from=ddedge@example.com&to=me@example.com`;
    const run = await runDist(['notify', 'test', good, 'smtp://127.0.0.1?from=nobody&to=me@example.com'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ddedge: URL 2 of 2: from= is not an e-mail address/m);
    expect(server.messages()).toEqual([]);
  });

  it('refuses at once a URL without its addresses, naming the form', async () => {
    const run = await runDist(['notify', 'test', `smtps://a:${CANARY}@mail.example.com?to=me@example.com`], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /from= is missing \(the sender's address\): smtps:\/\/USER:PASSWORD@HOST:PORT\?from=ADDR&to=ADDR/,
    );
    expect(run.stderr).not.toContain(CANARY);
  });
});
