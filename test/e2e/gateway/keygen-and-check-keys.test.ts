// `ddedge gateway keygen` and `check-keys`, run from the built file as a user would: keygen's
// output is a key BIND's own tools take (named-checkconf, dig -k) and the gateway's keys file
// reader takes; a keys file others may read is refused with exit 2; secrets are never printed
// except by keygen itself.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startDnsListener } from '../../../src/dns/server/listener.js';
import { decodeMessage, encodeMessage } from '../../../src/dns/wire/message.js';
import { answerWithTsig } from '../../../src/dns/server/tsig-server.js';
import { loadKeysFile } from '../../../src/gateway/keys/keys-file.js';
import { baseEnv, runDist, tempDir } from '../../helpers/cli.js';
import { requireTool } from '../../helpers/programs.js';

const BIND_TOOLS = requireTool('dig', 'bind9-dnsutils') && requireTool('named-checkconf', 'bind9-utils');

describe('ddedge gateway keygen and check-keys', () => {
  it('prints a key as tsig-keygen does, for each algorithm, and refuses an unknown one with exit 2', async () => {
    for (const algorithm of ['hmac-sha256', 'hmac-sha512', 'hmac-md5']) {
      const { code, stdout } = await runDist(
        ['gateway', 'keygen', 'ACME.Example.com.', '--algorithm', algorithm],
        baseEnv(),
      );
      expect(code).toBe(0);
      expect(stdout).toMatch(
        new RegExp(
          `^key "acme\\.example\\.com" \\{\\n\\talgorithm ${algorithm};\\n\\tsecret "[A-Za-z0-9+/]+=*";\\n\\};\\n$`,
        ),
      );
    }
    expect((await runDist(['gateway', 'keygen', 'k'], baseEnv())).stdout).toMatch(/algorithm hmac-sha256;/);
    const bad = await runDist(['gateway', 'keygen', 'k', '--algorithm', 'hmac-sha999'], baseEnv());
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/hmac-sha999/);
  });

  it.skipIf(!BIND_TOOLS)(
    'makes a key that named-checkconf accepts and that signs dig -k queries our TSIG verifies',
    async () => {
      const dir = tempDir();
      const file = join(dir, 'gateway.keys');
      writeFileSync(file, (await runDist(['gateway', 'keygen', 'dig.example'], baseEnv())).stdout, { mode: 0o600 });
      execFileSync('named-checkconf', [file]);
      const keys = loadKeysFile(file);
      const server = await startDnsListener({
        host: '127.0.0.1',
        port: 0,
        handle: (packet) =>
          answerWithTsig(
            packet,
            (name) => keys.keys.get(name),
            (request, signer) => {
              const q = decodeMessage(request);
              return encodeMessage({ id: q.id, response: true, questions: q.questions, rcode: signer ? 0 : 5 });
            },
            () => Math.floor(Date.now() / 1000),
          ),
      });
      try {
        const out = await new Promise<string>((resolve) =>
          execFile(
            'dig',
            ['@127.0.0.1', '-p', String(server.port), '+time=3', '+tries=1', '-k', file, 'example.com', 'SOA'],
            (_e, stdout) => resolve(stdout),
          ),
        );
        expect(out).toMatch(/status: NOERROR/);
        expect(out).toMatch(/TSIG PSEUDOSECTION/);
        expect(out).not.toMatch(/Couldn't verify|failure/);
      } finally {
        await server.close();
      }
    },
  );

  it('check-keys lists what each key may do, without its secret, and refuses a file others can read (exit 2)', async () => {
    const dir = tempDir();
    const file = join(dir, 'gateway.keys');
    const key = (await runDist(['gateway', 'keygen', 'acme'], baseEnv())).stdout;
    const secret = /secret "([^"]+)"/.exec(key)![1]!;
    writeFileSync(file, `${key}grant "acme" name _acme-challenge.example.com TXT;\ntransfer "acme";\n`, {
      mode: 0o600,
    });
    const ok = await runDist(['gateway', 'check-keys', file], baseEnv());
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe('acme hmac-sha256: name _acme-challenge.example.com TXT; transfer\n');
    chmodSync(file, 0o644);
    const open = await runDist(['gateway', 'check-keys', file], baseEnv());
    expect(open.code).toBe(2);
    expect(open.stderr).toMatch(/can be read by other users \(mode 0644\)/);
    for (const r of [ok, open]) expect(r.stdout + r.stderr).not.toContain(secret);
    chmodSync(file, 0o600);
    writeFileSync(file, `${key}grant "acme" zonesub PTR;\n`);
    const broken = await runDist(['gateway', 'check-keys', file], baseEnv());
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain(
      `${file}:5:22: grant "acme": expected a type the provider holds (A, AAAA, CNAME, MX, SRV, TXT, NS, CAA, DHCID) or ";", found "PTR"`,
    );
    expect(broken.stderr).not.toContain(secret);
  });
});
