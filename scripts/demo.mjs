// npm run demo: the whole job against the built-in sandbox, no account, no internet.
// Starts `ddedge sandbox`, runs `ddedge update` twice (the second finds the address unchanged
// and sends nothing), shows the zone, and stops the sandbox.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const ddedge = join(import.meta.dirname, '..', 'dist', 'ddedge.mjs');
const stateDir = mkdtempSync(join(tmpdir(), 'ddedge-demo-'));
const bold = process.stdout.isTTY ? (t) => `\x1b[1m${t}\x1b[0m` : (t) => t;
const dim = process.stdout.isTTY ? (t) => `\x1b[2m${t}\x1b[0m` : (t) => t;
const say = (text) => process.stdout.write(`\n${bold(text)}\n`);

const sandbox = spawn(process.execPath, [ddedge, 'sandbox', '--port', '0', '--json'], {
  stdio: ['ignore', 'pipe', 'pipe'],
});
createInterface({ input: sandbox.stderr }).on('line', (line) => process.stdout.write(`  ${dim(`[${line}]`)}\n`));
const info = await new Promise((resolve, reject) => {
  createInterface({ input: sandbox.stdout }).once('line', (line) => resolve(JSON.parse(line)));
  sandbox.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)));
});

// The demo's own settings only: a DDEDGE_ setting of the user's shell (DDEDGE_VIA=api) would make
// it do other than it says. Run in its state folder, where no ./.env of the user's is read either.
const env = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DDEDGE_'))),
  DDEDGE_DYNDNS_URL: info.dyndnsUrl,
  DDEDGE_DYNDNS_USER: info.dyndnsUser,
  DDEDGE_DYNDNS_KEY: info.dyndnsKey,
  DDEDGE_API_URL: info.apiUrl,
  DDEDGE_API_USER: info.apiUser,
  DDEDGE_API_PASSWORD: info.apiPassword,
  DDEDGE_HOSTS: 'home.example.com',
  DDEDGE_STATE_DIR: stateDir,
};
const run = async (args) => {
  process.stdout.write(`$ ddedge ${args.join(' ')}\n`);
  const child = spawn(process.execPath, [ddedge, ...args], { env, cwd: stateDir, stdio: 'inherit' });
  const code = await new Promise((resolve) => child.on('exit', resolve));
  process.stdout.write(`  (exit ${code})\n`);
  // Let the sandbox's request log catch up before the next step prints.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return code;
};

let failed = false;
try {
  say(`Sandbox at ${info.apiUrl} (demo account). The zone holds home.example.com A 192.0.2.20.`);
  say('1. The address changed: ddedge sends it through dynamic DNS.');
  failed ||= (await run(['update', '--ip', '81.0.2.15'])) !== 0;
  say('2. Same address again: answered from the cache, no request reaches the provider.');
  failed ||= (await run(['update', '--ip', '81.0.2.15'])) !== 0;
  say('3. What ddedge remembers:');
  failed ||= (await run(['status'])) !== 0;
  say('4. The zone, through the registrar API (ddedge api service dnslist):');
  failed ||= (await run(['api', 'service', 'dnslist', '--serviceName', 'example.com', '--filterType', 'A'])) !== 0;
} finally {
  sandbox.kill('SIGTERM');
  await new Promise((resolve) => sandbox.on('exit', resolve));
  rmSync(stateDir, { recursive: true, force: true });
}
say(
  failed
    ? 'The demo failed.'
    : 'Done: the sandbox is stopped. Try `node dist/ddedge.mjs sandbox` and point your own settings at it.',
);
process.exit(failed ? 1 : 0);
