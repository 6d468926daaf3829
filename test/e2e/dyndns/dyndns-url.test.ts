// --dyndns-url as the sandbox's banner prints it (…/json/): the format is taken from it,
// said on stderr, and the request goes to …/json/, never …/json/json/.
import { describe, expect, it } from 'vitest';
import { agentEnv, zoneValue } from '../../helpers/agent-env.js';
import { runDist } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });

describe('a --dyndns-url that ends in a format', () => {
  it.each([
    ['json/', 'json', '81.0.2.31'],
    ['xml', 'xml', '81.0.2.32'],
    ['plain/', 'plain', '81.0.2.33'],
  ])('…/%s is the base plus the %s format', async (suffix, format, ip) => {
    const env = agentEnv(sandbox, { DDEDGE_DYNDNS_URL: `${sandbox.url}/${suffix}` });
    const run = await runDist(['update', '--ip', ip], env);
    expect(run.stdout).toBe(`home.example.com A ${ip} updated\n`);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`the ${format} format is used, at ${sandbox.url}/${format}/`);
    expect(zoneValue(sandbox, 'home.example.com')).toBe(ip);
  });

  it('the same format given twice is fine; another one is a usage error naming both', async () => {
    const same = await runDist(
      ['update', '--ip', '81.0.2.34', '--dyndns-format', 'json'],
      agentEnv(sandbox, { DDEDGE_DYNDNS_URL: `${sandbox.url}/json/` }),
    );
    expect(same.code).toBe(0);
    const other = await runDist(
      ['update', '--ip', '81.0.2.35', '--dyndns-format', 'xml'],
      agentEnv(sandbox, { DDEDGE_DYNDNS_URL: `${sandbox.url}/json/` }),
    );
    expect(other).toMatchObject({
      code: 2,
      stderr:
        'ddedge: DDEDGE_DYNDNS_URL ends in /json/ but --dyndns-format is xml: give the base URL, or the same format\n',
    });
  });

  it('a plain base says nothing and appends the format', async () => {
    const run = await runDist(['update', '--ip', '81.0.2.36'], agentEnv(sandbox));
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain('format is used');
  });
});
