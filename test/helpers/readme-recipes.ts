// Recipes in the docs run as written: a shell block marked `<!-- recipe: NAME -->` (the line
// before its opening fence) is taken verbatim from the page that holds it, README.md or one of
// docs/*.md. The sandbox picks its own ports and the recipes read them from what it prints; the
// ports a page fixes (a gateway's, Pebble's) are safe from other runs on a shared machine because
// such a recipe runs in a network of its own (`ownNetwork`), where the ports a newcomer's desktop
// often has taken (mDNS 5353, 8443) are held, so a recipe that still relied on them fails.
// `withPorts` remains for tests that run a block against a server of their own.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../..');

/** The front page and the manual's pages, as paths relative to the repository. */
export function docPages(): string[] {
  return [
    'README.md',
    ...readdirSync(resolve(REPO, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .sort()
      .map((name) => `docs/${name}`),
  ];
}

/** The text of a page of the docs (`docs/gateway.md`, `README.md`). */
export function docPage(path: string): string {
  return readFileSync(resolve(REPO, path), 'utf8');
}

/** The page of the docs whose text holds `marker`; throws unless exactly one holds it. */
function pageWith(marker: string): string {
  const pages = docPages().filter((page) => docPage(page).includes(marker));
  if (pages.length === 0)
    throw new Error(`no page of the docs (README.md, docs/*.md) has a block marked ${marker.trim()}`);
  if (pages.length > 1) throw new Error(`the docs mark two blocks ${marker.trim()} (${pages.join(', ')})`);
  return docPage(pages[0]!);
}

/**
 * The body of the shell block after `<!-- recipe: NAME -->` in `text`, by default in the one page
 * of the docs that holds that marker; throws when missing.
 */
export function readmeRecipe(name: string, text?: string): string {
  const marker = `<!-- recipe: ${name} -->\n`;
  const page = text ?? pageWith(marker);
  const at = page.indexOf(marker);
  if (at < 0) throw new Error(`the text has no block marked ${marker.trim()}`);
  if (page.indexOf(marker, at + 1) >= 0) throw new Error(`the page marks two blocks ${marker.trim()}`);
  const block = /^```(?:sh|bash)\n([\s\S]*?)^```$/m.exec(page.slice(at + marker.length));
  if (block?.index !== 0) throw new Error(`${marker.trim()} is not followed by a sh block`);
  return block[1]!;
}

/**
 * `script` with each port of the page (a whole number, not part of a longer one) replaced by its
 * free port, in one pass (a free port equal to another of the page's ports is not replaced
 * again). A port the script does not name is an error: the mapping and the page have drifted apart.
 */
export function withPorts(script: string, ports: Record<number, number>): string {
  const pattern = (from: string) => new RegExp(`(?<![0-9])${from}(?![0-9])`, 'g');
  for (const from of Object.keys(ports))
    if (!pattern(from).test(script)) throw new Error(`the recipe no longer names port ${from}`);
  return script.replace(pattern(Object.keys(ports).join('|')), (from) => String(ports[Number(from)]));
}

export interface RecipeRun {
  code: number | null;
  output: string;
}

/**
 * Runs `script` with `bash -eu` (a failing line fails the recipe, as a reader would stop), in
 * its own process group, which is killed at the end or after `timeoutMs`: what the recipe
 * started in the background never outlives the test.
 */
export function runRecipe(
  script: string,
  options: {
    cwd: string;
    env: Record<string, string>;
    timeoutMs: number;
    uid?: number;
    /** In a network of its own, where the desktop's usual ports and these are taken. */
    ownNetwork?: { taken?: number[] };
  },
): Promise<RecipeRun> {
  if (options.ownNetwork && options.uid !== undefined) throw new Error('runRecipe: ownNetwork runs as root');
  const [command, args] = options.ownNetwork
    ? inOwnNetwork(script, [...DESKTOP_TAKEN_PORTS, ...(options.ownNetwork.taken ?? [])])
    : ['bash', ['-eu', '-c', script]];
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      // A recipe for users, run as one where the tests run as root.
      ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    };
    const timer = setTimeout(killGroup, options.timeoutMs);
    let code: number | null = null;
    // bash may exit with its background jobs still running: end them, then the output is whole.
    child.on('exit', (exitCode) => {
      code = exitCode;
      killGroup();
    });
    child.on('close', () => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Ports a desktop often has taken: mDNS (avahi) on 5353, and 8443, the sandbox's old fixed port. */
const DESKTOP_TAKEN_PORTS = [5353, 8443];

/**
 * The command that runs `script` with `bash -eu` in a network namespace of its own (a loopback
 * only: its ports cannot meet another run's), where `DESKTOP_TAKEN_PORTS` are already held (TCP
 * and UDP) when the script starts. Root gets a namespace directly; another user through a user
 * namespace. The holder is a process of the same group: the runner's end kills it too.
 * Recipes that run it need `unshare` (util-linux), `ip` (iproute2) and `node` on the PATH.
 */
function inOwnNetwork(script: string, taken: number[]): [string, string[]] {
  const hold = `
    const net = require('node:net'), dgram = require('node:dgram');
    const ports = process.argv.slice(1).map(Number);
    Promise.all(ports.flatMap((port) => [
      new Promise((ok) => net.createServer().listen(port, '127.0.0.1', ok)),
      new Promise((ok) => dgram.createSocket('udp4').bind(port, '127.0.0.1', ok)),
    ])).then(() => console.log('held'));`;
  const prelude = [
    'set -eu',
    'ip link set lo up',
    `exec 3< <(exec node -e "$1" ${taken.join(' ')})`,
    'read -r held <&3 && [ "$held" = held ]',
    'exec 3<&-',
    'exec bash -eu -c "$2"',
  ].join('\n');
  const userNamespace = process.getuid?.() === 0 ? [] : ['--user', '--map-root-user'];
  return ['unshare', [...userNamespace, '--net', '--', 'bash', '-c', prelude, 'recipe', hold, script]];
}

/** How many times the sandbox logged each API operation (`sandbox: POST /module/action/ -> …`). */
export function sandboxCalls(output: string): Record<string, number> {
  const calls: Record<string, number> = {};
  for (const m of output.matchAll(/^sandbox: POST \/([a-z]+\/[a-z]+)\/ -> /gm)) calls[m[1]!] = (calls[m[1]!] ?? 0) + 1;
  return calls;
}
