// A secret transformed by a hostile server (Base64 of the key and of
// `user:key`, Base64url, hex), a hook that prints the key just past the cut, and a state file
// that is really the key file: none shows the secret, whole or in part.
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { baseEnv, CANARY, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

let server: TestServer | undefined;
const sandbox = useSandbox();
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const USER = 'dyn-user';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const b64url = (text: string) => Buffer.from(text).toString('base64url');
const hex = (text: string) => Buffer.from(text).toString('hex');
const FORMS = [
  b64(CANARY),
  b64(`${USER}:${CANARY}`),
  b64url(CANARY),
  b64url(`${USER}:${CANARY}`),
  hex(CANARY),
  hex(CANARY).toUpperCase(),
];

/** Any of the forms, or a piece of one long enough to give the key away (12 characters). */
function shown(text: string): string[] {
  const found: string[] = [];
  for (const form of [CANARY, ...FORMS])
    for (let i = 0; i + 12 <= form.length; i += 4)
      if (text.includes(form.slice(i, i + 12))) found.push(form.slice(i, i + 12));
  return found;
}

describe('a dynamic DNS server that echoes the key transformed', () => {
  it.each([
    [
      'a refusal (JSON messages)',
      (form: string) =>
        JSON.stringify({
          success: false,
          user: USER,
          host: { name: 'home.example.com' },
          messages: [`bad auth Basic ${form}`, `token=${form};`],
        }),
      7,
    ],
    ['a malformed answer (plain)', (form: string) => `OOPS\nAuthorization: Basic ${form}\n`, 4],
  ])('%s: --json, stderr, status and state.json show none of it', async (_name, answer, code) => {
    for (const form of FORMS) {
      server = await startServer(answer(form));
      const env = baseEnv({
        DDEDGE_DYNDNS_URL: server.url,
        DDEDGE_DYNDNS_FORMAT: answer('x').startsWith('{') ? 'json' : 'plain',
        DDEDGE_DYNDNS_USER: USER,
        DDEDGE_DYNDNS_KEY: CANARY,
        DDEDGE_STATE_DIR: tempDir(),
        DDEDGE_HOSTS: 'home.example.com',
        DDEDGE_LOG_LEVEL: 'debug',
      });
      const result = await runDist(['update', '--ip', '81.0.2.15', '--json'], env);
      expect(result.code).toBe(code);
      const status = await runMain(['status', '--json'], env);
      const state = readFileSync(join(env.DDEDGE_STATE_DIR!, 'state.json'), 'utf8');
      const all = [result.stdout, result.stderr, status.stdout, status.stderr, state].join('\n');
      expect(all).toContain('***');
      expect(shown(all), form).toEqual([]);
      await server.close();
      server = undefined;
    }
  });
});

describe("a hook's output", () => {
  it.each([290, 295, 299])(
    'a key starting at character %i is masked before the output is cut (warn line and debug)',
    async (at) => {
      const keyFile = join(tempDir(), 'key');
      writeFileSync(keyFile, CANARY);
      sandbox.model.account.dyndnsKey = CANARY;
      const env = agentEnv(sandbox, { DDEDGE_DYNDNS_KEY: undefined, DDEDGE_DYNDNS_KEY_FILE: keyFile });
      const hook = `printf '%0${at}d' 0; cat ${keyFile}; printf ' and Basic %s' $(printf '%s' "u:$(cat ${keyFile})" | base64); exit 3`;
      for (const [i, level] of ['info', 'debug'].entries()) {
        const result = await runDist(
          ['update', '--ip', `81.0.2.${15 + i}`, '--on-change', hook, '--log-level', level],
          env,
        );
        expect(result.code).toBe(0);
        const tail = /warn: --on-change for home\.example\.com A failed \(exit 3\): (0+)(.?)/.exec(result.stderr);
        expect(tail?.[1]).toBe('0'.repeat(at));
        // Not even the key's first character.
        expect(tail?.[2]).not.toBe(CANARY[0]);
        expect(shown(result.stderr)).toEqual([]);
      }
    },
  );
});

describe('a damaged state file is never quoted', () => {
  const damaged = /state\.json is damaged/;
  it.each([
    // Not followed: refused as a link, whatever it points at.
    [
      'a link to the key file',
      (dir: string, keyFile: string) => symlinkSync(keyFile, join(dir, 'state.json')),
      /state\.json is a symbolic link, not a regular file/,
    ],
    [
      'a copy of a JSON string holding the key',
      (dir: string) => writeFileSync(join(dir, 'state.json'), JSON.stringify(`${CANARY} was here`)),
      damaged,
    ],
    [
      'the key inside broken JSON',
      (dir: string) => writeFileSync(join(dir, 'state.json'), `{"version":1,"records":{"${CANARY}`),
      damaged,
    ],
  ])('%s: update, status and health report the damage without its content', async (_name, plant, said) => {
    const keyFile = join(tempDir(), 'key');
    writeFileSync(keyFile, `${CANARY}\n`);
    const env = agentEnv(sandbox);
    plant(env.DDEDGE_STATE_DIR!, keyFile);
    for (const args of [
      ['status'],
      ['health'],
      ['update', '--ip', '81.0.2.15', '--dry-run'],
      ['update', '--ip', '81.0.2.15'],
    ]) {
      const result = await runMain(args, env);
      if (args[0] !== 'health') expect(result.stderr, args.join(' ')).toMatch(said);
      expect(result.stdout + result.stderr).not.toContain(CANARY.slice(0, 4));
    }
  });
});
