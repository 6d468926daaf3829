// ddedge api, as a user runs it: every operation from the command line, validated before
// sending, with the contract's exit codes.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/use-sandbox.js';
import { baseEnv, runDist, runMain, tempDir } from '../../helpers/cli.js';
import { callEveryOperation } from '../../helpers/api-operations.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { execFile } from 'node:child_process';

let stub: TestServer;
let answer: (path: string, form: URLSearchParams) => string;
beforeAll(async () => {
  stub = await startServer((req, res, body) => res.end(answer(req.url ?? '', new URLSearchParams(body))));
});
afterAll(async () => stub.close());
const envelope = (responseData: unknown, extra = {}) =>
  JSON.stringify({
    success: true,
    errorCode: 0,
    errorCodeMsg: '',
    action: 'x',
    version: '1.0.26',
    messages: [],
    responseData,
    ...extra,
  });
const env = () =>
  baseEnv({ DDEDGE_API_URL: stub.url, DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'canary-cli-password' });

describe('ddedge api', () => {
  it('calls every one of the 99 operations from the command line (main() in this process; the built file in the stress run)', async () => {
    await callEveryOperation(runMain);
  });

  it('sends the parameters by their API names, booleans as 1/0, and prints compact JSON off a terminal', async () => {
    let form: URLSearchParams | undefined;
    answer = (_path, f) => {
      form = f;
      return envelope({ domains: [] });
    };
    const run = await runDist(['api', 'domain', 'list', '--tld', 'es', '--renewable', 'yes', '--pageLength=50'], env());
    expect(run).toMatchObject({ code: 0, stdout: '{"domains":[]}\n' });
    expect(Object.fromEntries(form!)).toMatchObject({
      apiuser: 'u',
      apipasswd: 'canary-cli-password',
      'output-format': 'json',
      tld: 'es',
      renewable: '1',
      pageLength: '50',
    });
  });

  it('--raw prints the whole envelope; --all follows every page', async () => {
    answer = (_path, f) => {
      const page = Number(f.get('page') ?? 1);
      return envelope({
        queryInfo: { page, pageLength: 1, results: 1, total: 3 },
        contacts: [{ contactID: `C${page}` }],
      });
    };
    const all = await runMain(['api', 'contact', 'list', '--all', '--pageLength', '1'], env());
    expect(JSON.parse(all.stdout).contacts.map((c: { contactID: string }) => c.contactID)).toEqual(['C1', 'C2', 'C3']);
    const raw = await runMain(['api', 'contact', 'list', '--raw'], env());
    expect(JSON.parse(raw.stdout)).toMatchObject({
      success: true,
      version: '1.0.26',
      responseData: { contacts: [{ contactID: 'C1' }] },
    });
  });

  it.each([
    [1004, 3],
    [1030, 3],
    [2003, 4],
    [2008, 7],
    [4001, 7],
    [1100, 7],
  ])('an error answer with code %i exits %i', async (code, exit) => {
    answer = () =>
      JSON.stringify({
        success: false,
        errorCode: code,
        errorCodeMsg: 'refused',
        action: 'domain/getinfo',
        version: '1.0.26',
        messages: ['detail'],
        responseData: [],
      });
    const run = await runMain(['api', 'domain', 'getinfo', '--domain', 'example.com'], env());
    expect(run.code).toBe(exit);
    expect(run.stderr).toContain(`error ${code}`);
    expect(run.stderr).not.toContain('canary-cli-password');
  });

  it('an answer that is not the envelope is malformed (exit 4)', async () => {
    answer = () => '<html>maintenance</html>';
    expect((await runMain(['api', 'tool', 'hello'], env())).code).toBe(4);
  });

  it('refuses invalid values before any request (exit 2)', async () => {
    const before = stub.hits;
    const run = await runMain(['api', 'contact', 'create', '--Phone', '12345', '--Country', 'Spain'], env());
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/"Phone" \(argument 4\) must be a phone number as \+DD\.DDDDDDDD/);
    expect(run.stderr).toMatch(/"Country" \(argument 6\) must be a 2-letter country code/);
    expect(stub.hits).toBe(before);
  });

  it('an unknown operation exits 2 with the nearest names', async () => {
    const run = await runMain(['api', 'domain', 'getinfos'], env());
    expect(run).toMatchObject({ code: 2, stderr: expect.stringContaining('did you mean domain getinfo') });
  });

  it('api list shows the 99 operations; <op> --help shows each parameter, whether required, and its values', async () => {
    expect((await runMain(['api', 'list'], env())).stdout).toMatch(/^99 operations/);
    const help = (await runMain(['api', 'service', 'dnscreate', '--help'], env())).stdout;
    expect(help).toMatch(/--serviceName\s+required/);
    expect(help).toMatch(/--type\s+required\s+enum one of: A, AAAA, CNAME, MX, SRV, TXT, NS, CAA/);
    expect(help).toMatch(/--priority\s+optional/);
  });

  it('needs API credentials', async () => {
    expect(await runMain(['api', 'tool', 'hello'], baseEnv({ DDEDGE_API_URL: stub.url }))).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('DDEDGE_API_USER'),
    });
  });
});

describe('against the sandbox', () => {
  const sandbox = useSandbox({ per: 'file' });
  const sandboxEnv = () =>
    baseEnv({
      DDEDGE_API_URL: sandbox.url,
      DDEDGE_API_USER: sandbox.model.account.apiUser,
      DDEDGE_API_PASSWORD: sandbox.model.account.apiPassword,
    });

  it('reads and changes a zone', async () => {
    const created = await runDist(
      [
        'api',
        'service',
        'dnscreate',
        '--serviceName',
        'example.com',
        '--name',
        'api.example.com',
        '--type',
        'A',
        '--value',
        '81.0.2.80',
      ],
      sandboxEnv(),
    );
    expect(created.code).toBe(0);
    const list = JSON.parse(
      (await runDist(['api', 'service', 'dnslist', '--serviceName', 'example.com', '--filterType', 'A'], sandboxEnv()))
        .stdout,
    );
    expect(list.dns.map((e: { name: string }) => e.name)).toContain('api.example.com');
  });

  it('the library: import { Registrar } from "ddedge" works from the package', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(resolve(import.meta.dirname, '../../..'), join(dir, 'node_modules', 'ddedge'));
    writeFileSync(
      join(dir, 'use.mjs'),
      `import { Registrar } from 'ddedge';
       const r = new Registrar({ url: process.env.URL, user: process.env.USER_, password: process.env.PASS });
       const hello = await r.tool.hello();
       const zone = await r.service.dnsList.collect({ serviceName: 'example.com' }, { limit: 100 });
       console.log(JSON.stringify({ ip: hello.ip, entries: zone.length }));
       await r.close();`,
    );
    const out = await new Promise<string>((resolveOut, reject) =>
      execFile(
        process.execPath,
        ['use.mjs'],
        {
          cwd: dir,
          env: {
            PATH: process.env.PATH,
            URL: sandbox.url,
            USER_: sandbox.model.account.apiUser,
            PASS: sandbox.model.account.apiPassword,
          },
        },
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolveOut(stdout)),
      ),
    );
    expect(JSON.parse(out)).toMatchObject({ ip: '127.0.0.1', entries: expect.any(Number) });
  });
});
