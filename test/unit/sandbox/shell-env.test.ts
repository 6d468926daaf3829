// sandbox --print-env: lines a POSIX shell reads back exactly, whatever the account holds (a
// sandbox's --data file may hold any password), and an IPv6 address written as each use needs it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoModel } from '../../../src/sandbox/model.js';
import { sandboxShellLines } from '../../../src/sandbox/shell-env.js';
import { REPO } from '../../helpers/readme-recipes.js';

/** The named variables as `sh` sees them after reading `lines`. */
function read(lines: string, names: string[]): string[] {
  const script = `${lines}\nfor n in ${names.join(' ')}; do eval "printf '%s\\n' \\"\\$$n\\""; done`;
  return execFileSync('sh', ['-c', script], { encoding: 'utf8', env: {} }).split('\n').slice(0, -1);
}

describe('sandboxShellLines', () => {
  it('quotes every value so the shell reads it back exactly', () => {
    const model = demoModel();
    model.account.apiPassword = `it's $HOME "x" \`y\` \\ z`;
    const lines = sandboxShellLines({ url: 'http://127.0.0.1:4000', model, dnsPort: undefined });
    expect(read(lines, ['DDEDGE_API_PASSWORD', 'DDEDGE_API_URL', 'SANDBOX_PORT'])).toEqual([
      model.account.apiPassword,
      'http://127.0.0.1:4000',
      '4000',
    ]);
    expect(lines).not.toContain('SANDBOX_DNS');
  });

  it('gives an IPv6 host bare, and the name server as HOST:PORT with brackets, as --dns-server takes it', () => {
    const lines = sandboxShellLines({ url: 'https://[::1]:4000', model: demoModel(), dnsPort: 4001 });
    expect(read(lines, ['SANDBOX_HOST', 'SANDBOX_DNS', 'SANDBOX_DNS_PORT', 'DDEDGE_DYNDNS_URL'])).toEqual([
      '::1',
      '[::1]:4001',
      '4001',
      'https://[::1]:4000',
    ]);
  });

  it('names the default port when the URL leaves it out', () => {
    expect(read(sandboxShellLines({ url: 'https://127.0.0.1', model: demoModel() }), ['SANDBOX_PORT'])).toEqual([
      '443',
    ]);
  });
});

describe("docs/sandbox.md's example of --print-env", () => {
  it('is what it prints for those ports, line for line', () => {
    const page = readFileSync(join(REPO, 'docs/sandbox.md'), 'utf8');
    const example = /^## Its ports\n[\s\S]*?^```text\n([\s\S]*?)^```$/m.exec(page)![1]!;
    const lines = sandboxShellLines({ url: 'http://127.0.0.1:40123', model: demoModel(), dnsPort: 40124 });
    expect(example).toBe(lines);
  });
});
