// The sandbox's dynamic DNS interface reads a host name as DNS does: case and a final dot make no
// difference, so a name written as a resolver prints it finds its record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../../src/sandbox/server.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());

const update = async (host: string, ip: string) => {
  const { dyndnsUser, dyndnsKey } = sandbox.model.account;
  const query = new URLSearchParams({ user: dyndnsUser, password: dyndnsKey, host, ip });
  return (await fetch(`${sandbox.url}/plain/?${query}`)).text();
};
const homeAddress = () =>
  sandbox.model.services.flatMap((s) => s.dns).find((e) => e.name === 'home.example.com' && e.type === 'A')?.value;

describe('the sandbox dynamic DNS host', () => {
  it('finds the record whatever the case, with or without the final dot', async () => {
    expect(await update('HOME.EXAMPLE.COM.', '81.0.2.16')).toMatch(/^OK/);
    expect(homeAddress()).toBe('81.0.2.16');
    expect(await update('Home.Example.Com', '81.0.2.17')).toMatch(/^OK/);
    expect(homeAddress()).toBe('81.0.2.17');
  });

  it('still answers "not found" for a name it does not hold, and for a name of dots', async () => {
    expect(await update('nohost.example.com.', '81.0.2.18')).toMatch(/not found/);
    expect(await update('.', '81.0.2.18')).toMatch(/not found|Incorrect/);
  });
});
