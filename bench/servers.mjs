// The bench's local servers, on 127.0.0.1 with a throw-away CA so every request is verified
// as in production. They answer at once and count what they are asked, so each row of the
// table shows the work its contender did.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { join } from 'node:path';

export function makeTls(work) {
  const openssl = (...args) => execFileSync('openssl', args, { cwd: work, stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '1',
    '-subj',
    '/CN=bench CA',
  );
  openssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=localhost',
  );
  writeFileSync(join(work, 'ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
  return { ca: join(work, 'ca.pem'), cert: join(work, 'server.pem'), key: join(work, 'server.key') };
}

/** An HTTPS echo source that answers `body` at once and counts its requests. */
export async function startEcho(tls, body) {
  const echo = { url: '', requests: 0, server: undefined };
  echo.server = https.createServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, (_q, r) => {
    echo.requests++;
    r.end(body);
  });
  await new Promise((resolve) => echo.server.listen(0, '127.0.0.1', resolve));
  echo.url = `https://127.0.0.1:${echo.server.address().port}/`;
  return echo;
}

/**
 * `ddedge sandbox` in its own process, as a provider would be. It logs one line per request
 * on stderr; `requests` counts them (read it after `settle()`: the lines arrive through a pipe).
 */
export async function startSandbox(ddedge, tls) {
  const child = spawn(
    process.execPath,
    [ddedge, 'sandbox', '--port', '0', '--json', '--tls-cert', tls.cert, '--tls-key', tls.key],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const sandbox = { child, info: undefined, requests: 0 };
  child.stderr.on(
    'data',
    (d) =>
      (sandbox.requests += String(d)
        .split('\n')
        .filter((l) => /^sandbox: (GET|POST) /.test(l)).length),
  );
  sandbox.info = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(JSON.parse(String(d)))));
  sandbox.settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  return sandbox;
}

/** The agent's environment for the cycle benches: the sandbox's dynamic DNS, one host, its state, the echo sources. */
export function agentEnv({ work, tls, info, stateDir, sources }) {
  return {
    PATH: process.env.PATH,
    HOME: work,
    NODE_EXTRA_CA_CERTS: tls.ca,
    DDEDGE_DYNDNS_URL: info.dyndnsUrl,
    DDEDGE_DYNDNS_USER: info.dyndnsUser,
    DDEDGE_DYNDNS_KEY: info.dyndnsKey,
    DDEDGE_HOSTS: 'home.example.com',
    DDEDGE_STATE_DIR: stateDir,
    DDEDGE_IP_SOURCES: sources.map((s) => `url:${s.url}`).join(','),
    // Under valgrind on a busy machine a TLS answer can take longer than the default deadline;
    // a longer one changes no work done.
    ...(process.env.DDEDGE_TIMEOUT ? { DDEDGE_TIMEOUT: process.env.DDEDGE_TIMEOUT } : {}),
  };
}

// Stand-ins for the DNS sources (also used by the build's code-cache cycle).
export { startWhoamiDns } from '../build/whoami-dns.mjs';

/** Processes startDdedge started, ended when the bench ends. */
const started = [];
process.on('exit', () => {
  for (const child of started) child.kill('SIGTERM');
});

/** Starts `args` with the built `ddedge` and waits for `pattern` on the stream; returns its match (`.child`: the process). */
export function startDdedge(ddedge, args, env, stream, pattern) {
  const child = spawn(process.execPath, [ddedge, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} from ${args[0]}: ${text}`)), 60_000);
    child.once('exit', (code) => reject(new Error(`${args[0]} ended (${code}): ${text}`)));
    child[stream].on('data', (d) => {
      text += String(d);
      const found = pattern.exec(text);
      if (found) {
        clearTimeout(timer);
        resolve(Object.assign(found, { child }));
      }
    });
  });
}
