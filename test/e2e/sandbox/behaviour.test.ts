// The sandbox behaves as the provider does where a client can tell: errors by situation,
// form fields only, the caller allow-list, both output formats, persistence.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API } from '../../../src/api/endpoints/index.js';
import { type ApiError, Registrar } from '../../../src/sdk/index.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/server.js';
import { tempDir } from '../../helpers/cli.js';

let sandboxes: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(sandboxes.map((s) => s.close()));
  sandboxes = [];
});
async function sandbox(options: Parameters<typeof startSandbox>[0] = {}) {
  const s = await startSandbox(options);
  sandboxes.push(s);
  return s;
}
const client = (s: Sandbox, extra = {}) =>
  new Registrar({ url: s.url, user: s.model.account.apiUser, password: s.model.account.apiPassword, ...extra });
const post = (s: Sandbox, path: string, form: Record<string, string>, query = '') =>
  fetch(`${s.url}${path}${query}`, {
    method: 'POST',
    body: new URLSearchParams({ apiuser: s.model.account.apiUser, apipasswd: s.model.account.apiPassword, ...form }),
  });

describe('the sandbox as a provider', () => {
  it('refuses what the balance cannot pay (1100) and charges what it can', async () => {
    const s = await sandbox();
    s.model.account.balance = 5;
    const api = client(s);
    const error = (await api.domain
      .create({ domain: 'cheap.com', owner: 'DEMO-1' })
      .catch((e: unknown) => e)) as ApiError;
    expect([error.errorCode, error.kind]).toEqual([1100, 'billing']);
    expect(s.model.domains.some((d) => d.name === 'cheap.com')).toBe(false);
    s.model.account.balance = 20;
    await api.domain.create({ domain: 'cheap.com', owner: 'DEMO-1' });
    expect(s.model.account.balance).toBe(8.5);
    await api.close();
  });

  it('ignores parameters sent with GET (form fields only)', async () => {
    const s = await sandbox();
    const answer = await post(s, '/service/dnslist/', {}, '?serviceName=example.com').then((r) => r.json());
    expect(answer).toMatchObject({ success: false, errorCode: 101 });
  });

  it('answers wrong credentials with 1003/1004 and an unlisted caller with 1007', async () => {
    const s = await sandbox({ allowedIps: ['192.0.2.1'] });
    const blocked = (await client(s)
      .tool.hello()
      .catch((e: unknown) => e)) as ApiError;
    expect([blocked.errorCode, blocked.kind, blocked.exitCode]).toEqual([1007, 'blocked', 3]);
    const open = await sandbox();
    const wrongUser = await fetch(`${open.url}/tool/hello/`, {
      method: 'POST',
      body: new URLSearchParams({ apiuser: 'nobody', apipasswd: 'x' }),
    }).then((r) => r.json());
    expect(wrongUser.errorCode).toBe(1003);
  });

  it('answers an unknown operation with 102 and invalid parameters with 101, naming them', async () => {
    const s = await sandbox();
    expect(await post(s, '/domain/frobnicate/', {}).then((r) => r.json())).toMatchObject({
      success: false,
      errorCode: 102,
      errorCodeMsg: 'Object action invalid',
      messages: ['invalid object/action'],
      responseData: [],
    });
    const invalid = await post(s, '/service/ftpcreate/', {
      serviceName: 'example.com',
      name: 'x',
      ftpPath: '/',
      password: 'p',
      quota: '10',
    }).then((r) => r.json());
    expect(invalid).toMatchObject({ errorCode: 101, messages: ['"quota" must be at least 1048576'] });
  });

  it('answers in XML (read back by the SDK into the same result), and pretty JSON on request', async () => {
    const s = await sandbox();
    const xml = client(s, { outputFormat: 'xml' });
    const json = client(s);
    expect(await xml.service.dnsList({ serviceName: 'example.com' })).toEqual(
      await json.service.dnsList({ serviceName: 'example.com' }),
    );
    expect(await xml.domain.getInfo({ domain: 'example.com' })).toEqual(
      await json.domain.getInfo({ domain: 'example.com' }),
    );
    const xmlError = (await xml.domain.getInfo({ domain: 'nope.com' }).catch((e: unknown) => e)) as ApiError;
    expect(xmlError.errorCode).toBe(2008);
    const pretty = await post(s, '/tool/hello/', { 'output-pretty': 'true' }).then((r) => r.text());
    expect(pretty).toContain('\n  "success": true');
    await xml.close();
    await json.close();
  });

  it('sends a Content-Length with every answer (clients that read the socket do not decode chunks)', async () => {
    const s = await sandbox();
    const answer = await post(s, '/tool/hello/', {});
    expect(Number(answer.headers.get('content-length'))).toBe((await answer.text()).length);
    const dyndns = await fetch(
      `${s.url}/plain/?user=demo-user&password=demo-dyndns-key&host=home.example.com&ip=81.0.2.15`,
    );
    expect(Number(dyndns.headers.get('content-length'))).toBe((await dyndns.text()).length);
  });

  it('keeps API changes in --data across restarts', async () => {
    const data = join(tempDir(), 'sandbox.json');
    const first = await sandbox({ dataFile: data });
    await client(first).service.dnsCreate({
      serviceName: 'example.com',
      name: 'kept',
      type: 'TXT',
      value: 'still here',
    });
    await first.close();
    sandboxes = [];
    const second = await sandbox({ dataFile: data });
    const txt = await client(second).client.call('service', API.service.dnsList, {
      serviceName: 'example.com',
      filterType: 'TXT',
    });
    expect(txt.dns.map((e) => e.value)).toContain('still here');
  });
});
