// ddedge acme persist, as a user runs it (the built file) against the sandbox, whose name server
// answers --check: the record written once, an equal one costs no write, another CA's record
// stays, --check says what a CA would see and exits 8 when it would refuse, --remove deletes
// only the issuer's record. The API password is a canary, at debug level: never shown.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acmeEnv, challengeValues } from '../../helpers/acme.js';
import { CANARY, runDist } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ dnsPort: 0 });

const NAME = '_validation-persist.example.com';
const ACCOUNT = 'https://acme.example/acme/acct/123456789';
const OTHER_CA = 'ca2.example; accounturi=https://ca2.example/acme/acct/67890';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile())
    .map((f) => readFileSync(f, 'utf8'));
}

describe('ddedge acme persist', () => {
  it('keeps the record, checks it on the name server, and removes only its own', async () => {
    sandbox.model.account.apiPassword = CANARY;
    sandbox.model.services[0]!.dns.push({
      entityID: '91',
      name: NAME,
      type: 'TXT',
      ttl: '-',
      priority: '-',
      value: OTHER_CA,
    });
    const env = acmeEnv(sandbox, {
      DDEDGE_DNS_SERVERS: `127.0.0.1:${sandbox.dnsPort}`,
      DDEDGE_LOG_LEVEL: 'debug',
    });
    const persist = (...args: string[]) => runDist(['acme', 'persist', 'example.com', ...args], env);
    const outputs: string[] = [];
    const run = async (...args: string[]) => {
      const result = await persist(...args);
      outputs.push(result.stdout, result.stderr);
      return result;
    };
    const keep = ['--issuer', 'LetsEncrypt.org', '--account-uri', ACCOUNT, '--wildcard', '--until', '2028-01-01'];
    const wanted = `letsencrypt.org; accounturi=${ACCOUNT}; policy=wildcard; persistUntil=1830297600`;

    const created = await run(...keep);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toBe(
      `${NAME} TXT "${wanted}" added (valid until 2028-01-01T00:00:00Z); 1 other TXT record(s) there left as they ` +
        'were\n',
    );
    expect(challengeValues(sandbox, NAME)).toEqual([OTHER_CA, wanted]);

    const status = await runDist(['status'], env);
    expect(status.stdout).toContain(
      `${NAME} TXT (DNS-PERSIST-01): valid for letsencrypt.org until 2028-01-01T00:00:00Z\n`,
    );

    sandbox.calls.clear();
    const again = await run(...keep, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ action: 'unchanged', record: wanted, otherRecords: 1 });
    expect(Object.fromEntries(sandbox.calls)).toEqual({ 'service/dnslist': 1 });

    // --ttl: a TTL other than the record's is an update in place; the same one again costs no write.
    const ttlOf = () => sandbox.model.services[0]!.dns.filter((e) => e.value === wanted).map((e) => e.ttl);
    sandbox.calls.clear();
    const longer = await run(...keep, '--ttl', '3600');
    expect(longer.code, longer.stderr).toBe(0);
    expect(longer.stdout).toContain(`${NAME} TXT "${wanted}" replaced (TTL 3600`);
    expect(ttlOf()).toEqual(['3600']);
    expect(Object.fromEntries(sandbox.calls)).toEqual({ 'service/dnslist': 1, 'service/dnsupdate': 1 });
    sandbox.calls.clear();
    const same = await run(...keep, '--ttl', '3600');
    expect(same.stdout).toContain('already there; nothing written');
    expect(Object.fromEntries(sandbox.calls)).toEqual({ 'service/dnslist': 1 });

    const check = await run('--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT, '--wildcard', '--check');
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toBe(
      `${NAME}: letsencrypt.org would accept this record\n  127.0.0.1:${sandbox.dnsPort}: valid for account ` +
        `${ACCOUNT}, the domain, its wildcard and every name below it, until 2028-01-01T00:00:00Z\n`,
    );

    const otherAccount = await run('--issuer', 'letsencrypt.org', '--account-uri', `${ACCOUNT}0`, '--check', '--json');
    expect(otherAccount.code).toBe(8);
    expect(JSON.parse(otherAccount.stdout)).toMatchObject({
      valid: false,
      servers: [{ verdict: { valid: false, problem: 'unauthorized' } }],
    });

    const removed = await run('--issuer', 'letsencrypt.org', '--remove');
    expect(removed).toMatchObject({ code: 0 });
    expect(challengeValues(sandbox, NAME)).toEqual([OTHER_CA]);
    expect((await runDist(['status'], env)).stdout).not.toContain('DNS-PERSIST-01');
    const gone = await run('--issuer', 'letsencrypt.org', '--check');
    expect(gone.code).toBe(8);
    expect(gone.stdout).toContain('not valid: no record for the issuer letsencrypt.org');

    for (const text of [...outputs, ...filesUnder(env.DDEDGE_STATE_DIR!)]) expect(text).not.toContain(CANARY);
    expect(outputs.join('')).toContain('debug');
  });

  it('refuses bad input before anything is read or sent (exit 2)', async () => {
    const env = acmeEnv(sandbox);
    const cases: [string[], string][] = [
      [['*.example.com', '--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT], 'give example.com with --wildcard'],
      [['example.com', '--account-uri', ACCOUNT], '--issuer is required'],
      [['example.com', '--issuer', 'letsencrypt.org'], '--account-uri is required'],
      [['example.com', '--issuer', 'lets encrypt', '--account-uri', ACCOUNT], 'is not a domain name'],
      [['example.com', '--issuer', 'letsencrypt.org', '--account-uri', `${ACCOUNT};policy=wildcard`], 'not a URI'],
      [['example.com', '--issuer', 'letsencrypt.org', '--account-uri', `https://x/${'a'.repeat(5000)}`], 'at most'],
      [['example.com', '--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT, '--until', '2020-01-01'], 'has passed'],
      [['example.com', '--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT, '--until', 'soon'], 'neither a time'],
      [['example.com', '--issuer', 'letsencrypt.org', '--check', '--remove'], 'not both'],
      [['example.com', '--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT, '--ttl', '59'], 'from 60 to 604800'],
      [['example.com', '--issuer', 'letsencrypt.org', '--account-uri', ACCOUNT, '--ttl', '1h'], 'not a whole number'],
      [
        ['example.com', '--issuer', 'letsencrypt.org', '--ttl', '300', '--remove'],
        '--ttl has no meaning with --remove',
      ],
      [['example.com', '--issuer', 'letsencrypt.org', '--ttl', '300', '--check'], '--ttl has no meaning with --check'],
    ];
    for (const [args, message] of cases) {
      const result = await runDist(['acme', 'persist', ...args], env);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
    expect(sandbox.calls.size).toBe(0);
  });
});
