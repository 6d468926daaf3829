// `ddedge api` parameters: each has a description in its operation's --help (`--filter` had
// none), and a mistyped one gets "did you mean" (a swap of two letters included).
import { describe, expect, it } from 'vitest';
import { operations } from '../../../src/api/endpoints/index.js';
import { baseEnv, runMain } from '../../helpers/cli.js';

const env = () => baseEnv({ DDEDGE_API_URL: 'http://127.0.0.1:9/', DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p' });

describe('api parameters', () => {
  it('every parameter of every operation has a description', () => {
    const missing = operations().flatMap((o) =>
      Object.entries(o.endpoint.params)
        .filter(([, spec]) => !spec.describe)
        .map(([name]) => `${o.module} ${o.endpoint.action} --${name}`),
    );
    expect(missing).toEqual([]);
  });

  it("an operation's --help describes each parameter, --filter included", async () => {
    const { code, stdout } = await runMain(['api', 'service', 'dnslist', '--help'], env());
    expect(code).toBe(0);
    expect(stdout).toMatch(/--filter +optional +string +\(only entries whose name contains this text\)/);
    expect(stdout).toMatch(/--serviceName +required +string +\(service name\)/);
  });

  it.each([
    ['--fitler', 'did you mean filter?'],
    ['--filtertype', 'did you mean filterType?'],
    ['--servicename', 'did you mean serviceName?'],
  ])('%s: exit 2, %s, nothing sent', async (flag, hint) => {
    const run = await runMain(['api', 'service', 'dnslist', '--serviceName', 'example.com', flag, 'A'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(hint);
  });
});
