import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentWithDotenv } from '../../../src/config/env-sources.js';
import { defaultStateDir, loadConfig, type FlagValues } from '../../../src/config/load.js';
import { SETTINGS } from '../../../src/config/settings.js';
import { ConfigError } from '../../../src/lib/errors.js';
import { tempDir } from '../../helpers/cli.js';

const CREDS = { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'dyndns-key-1', DDEDGE_HOSTS: 'home.example.com' };
const load = (
  flags: FlagValues = {},
  env: Record<string, string> = {},
  purpose: 'cycle' | 'detect' | 'state' = 'cycle',
) => loadConfig({ flags, env: { ...CREDS, ...env }, purpose, isRoot: false });
const problem = (
  flags: FlagValues,
  env: Record<string, string> = {},
  purpose: 'cycle' | 'detect' | 'state' = 'cycle',
) => {
  try {
    load(flags, env, purpose);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigError');
};

describe('defaults', () => {
  it('are the contract table', () => {
    const c = load();
    expect(c.dyndns).toMatchObject({ url: 'https://dondns.dondominio.com/', format: 'json', keyParam: 'password' });
    expect(c.api.url).toBe('https://simple-api.dondominio.net/');
    expect(c).toMatchObject({
      via: 'auto',
      quorum: 2,
      ipv6: false,
      maxAgeMs: 7 * 86_400_000,
      timeoutMs: 15_000,
      intervalMs: 300_000,
      allowPrivateIp: false,
      logLevel: 'info',
      logFormat: 'text',
    });
    expect(c.ipSources.map((s) => s.name)).toEqual([
      'opendns',
      'google-dns',
      'ipify',
      'icanhazip',
      'aws',
      'cloudflare',
    ]);
    expect(c.ip6Sources.map((s) => s.name)).toEqual(['opendns', 'google-dns', 'ipify', 'icanhazip', 'cloudflare']);
  });
  it('state dir: $STATE_DIRECTORY, then /var/lib/ddedge as root, then XDG, then ~/.local/state', () => {
    expect(defaultStateDir({ STATE_DIRECTORY: '/var/lib/ddedge-unit:/other' }, false)).toBe('/var/lib/ddedge-unit');
    expect(defaultStateDir({}, true)).toBe('/var/lib/ddedge');
    expect(defaultStateDir({ XDG_STATE_HOME: '/x' }, false)).toBe('/x/ddedge');
    expect(defaultStateDir({ HOME: '/home/u' }, false)).toBe('/home/u/.local/state/ddedge');
  });
  it('quorum is 1 with a single source', () => {
    expect(load({ 'ip-source': ['url:http://127.0.0.1:9/'] }).quorum).toBe(1);
  });
});

describe('every setting from its flag and its variable', () => {
  const cases: [keyof typeof SETTINGS, string, (c: ReturnType<typeof load>) => unknown, unknown][] = [
    ['dyndnsUrl', 'https://dyn.example.net/base', (c) => c.dyndns.url, 'https://dyn.example.net/base'],
    ['dyndnsFormat', 'xml', (c) => c.dyndns.format, 'xml'],
    ['dyndnsUser', 'someone', (c) => c.dyndns.user, 'someone'],
    ['dyndnsKey', 'k-123456', (c) => c.dyndns.key, 'k-123456'],
    ['dyndnsKeyParam', 'apikey', (c) => c.dyndns.keyParam, 'apikey'],
    ['apiUrl', 'https://simple-api-test.dondominio.net', (c) => c.api.url, 'https://simple-api-test.dondominio.net/'],
    ['apiUser', 'api-u', (c) => c.api.user, 'api-u'],
    ['apiPassword', 'p-123456', (c) => c.api.password, 'p-123456'],
    ['hosts', 'a.example.com', (c) => c.hosts, ['a.example.com']],
    ['service', 'example.org', (c) => c.service, 'example.org'],
    ['via', 'dyndns', (c) => c.via, 'dyndns'],
    ['ip', '81.0.2.15', (c) => c.ip, '81.0.2.15'],
    [
      'ipSources',
      'url:https://echo.example.net/',
      (c) => c.ipSources.map((s) => s.name),
      ['url:https://echo.example.net/'],
    ],
    ['quorum', '1', (c) => c.quorum, 1],
    ['ipv6', 'true', (c) => c.ipv6, true],
    ['ip6', '2A00:1450::0:200E', (c) => c.ip6, '2a00:1450::200e'],
    ['ip6Sources', 'iface:eth0', (c) => c.ip6Sources.map((s) => s.name), ['iface:eth0']],
    ['stateDir', '/tmp/ddedge-unit', (c) => c.stateDir, '/tmp/ddedge-unit'],
    ['maxAge', '2h', (c) => c.maxAgeMs, 7_200_000],
    ['timeout', '1500ms', (c) => c.timeoutMs, 1500],
    ['interval', '10m', (c) => c.intervalMs, 600_000],
    ['allowPrivateIp', 'yes', (c) => c.allowPrivateIp, true],
    ['logLevel', 'debug', (c) => c.logLevel, 'debug'],
    ['logFormat', 'json', (c) => c.logFormat, 'json'],
  ];
  const apiEnv = { DDEDGE_API_USER: 'x', DDEDGE_API_PASSWORD: 'y-123456' };
  it.each(cases)('%s', (name, value, read, expected) => {
    const setting = SETTINGS[name];
    const isBoolean = setting.kind === 'boolean';
    const flagValue = isBoolean ? true : 'multiple' in setting ? [value] : value;
    const env: Record<string, string> =
      name === 'apiUser'
        ? { DDEDGE_API_PASSWORD: 'y-123456' }
        : name === 'apiPassword'
          ? { DDEDGE_API_USER: 'x' }
          : name === 'ipv6'
            ? apiEnv
            : {};
    expect(read(load({ [setting.flag]: flagValue }, env))).toEqual(expected);
    expect(read(load({}, { ...env, [setting.env]: value }))).toEqual(expected);
  });
  it('flags win over variables', () => {
    expect(load({ 'dyndns-format': 'plain' }, { DDEDGE_DYNDNS_FORMAT: 'xml' }).dyndns.format).toBe('plain');
  });
  it('host names in Unicode are kept in punycode', () => {
    expect(load({ host: ['casa.España.example'] }).hosts).toEqual(['casa.xn--espaa-rta.example']);
  });
  it('lists: repeatable flags and comma-separated variables, lower-cased and without duplicates', () => {
    expect(load({ host: ['A.example.com', 'b.example.com.'] }).hosts).toEqual(['a.example.com', 'b.example.com']);
    expect(load({}, { DDEDGE_HOSTS: 'a.example.com, b.example.com,a.example.com' }).hosts).toEqual([
      'a.example.com',
      'b.example.com',
    ]);
  });
});

describe('dotenv, *_FILE and systemd credentials', () => {
  it('reads ./.env without overriding set variables, and --env-file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, '.env'), 'DDEDGE_DYNDNS_FORMAT=plain\nDDEDGE_TIMEOUT=3s\n');
    const env = await environmentWithDotenv({ DDEDGE_TIMEOUT: '4s' }, undefined, dir);
    expect(env).toMatchObject({ DDEDGE_DYNDNS_FORMAT: 'plain', DDEDGE_TIMEOUT: '4s' });
    writeFileSync(join(dir, 'other.env'), 'DDEDGE_DYNDNS_FORMAT=xml\n');
    expect((await environmentWithDotenv({}, join(dir, 'other.env'), dir)).DDEDGE_DYNDNS_FORMAT).toBe('xml');
    await expect(environmentWithDotenv({}, join(dir, 'missing.env'), dir)).rejects.toThrow(/--env-file: cannot read/);
  });
  it('reads a secret from <VAR>_FILE, dropping the trailing newline', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'key'), 'from-file-key\n');
    const c = load({}, { DDEDGE_DYNDNS_KEY: '', DDEDGE_DYNDNS_KEY_FILE: join(dir, 'key') });
    expect(c.dyndns.key).toBe('from-file-key');
  });
  it('refuses a missing or empty secret file, and VAR with VAR_FILE', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'empty'), '\n');
    expect(problem({}, { DDEDGE_DYNDNS_KEY: '', DDEDGE_DYNDNS_KEY_FILE: join(dir, 'nope') })).toMatch(
      /DDEDGE_DYNDNS_KEY_FILE: cannot read/,
    );
    expect(problem({}, { DDEDGE_DYNDNS_KEY: '', DDEDGE_DYNDNS_KEY_FILE: join(dir, 'empty') })).toMatch(/is empty/);
    expect(problem({}, { DDEDGE_DYNDNS_KEY_FILE: join(dir, 'empty') })).toMatch(
      /both DDEDGE_DYNDNS_KEY and DDEDGE_DYNDNS_KEY_FILE/,
    );
  });
  it('reads $CREDENTIALS_DIRECTORY/dyndns-key and api-password', () => {
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'dyndns-key'), 'cred-dyndns-key');
    writeFileSync(join(dir, 'api-password'), 'cred-api-password');
    const c = load({}, { DDEDGE_DYNDNS_KEY: '', CREDENTIALS_DIRECTORY: dir, DDEDGE_API_USER: 'api' });
    expect(c.dyndns.key).toBe('cred-dyndns-key');
    expect(c.api.password).toBe('cred-api-password');
  });
});

describe('invalid values are refused, naming the setting and what it accepts', () => {
  it.each<[FlagValues, Record<string, string>, RegExp]>([
    [{ 'dyndns-url': 'http://dyn.example.net' }, {}, /--dyndns-url: http:\/\/ is allowed only for loopback/],
    [{}, { DDEDGE_API_URL: 'http://10.0.0.5/api' }, /DDEDGE_API_URL: http:\/\/ is allowed only for loopback/],
    [{ 'api-url': 'not a url' }, {}, /--api-url: "not a url" is not a URL/],
    [{ 'dyndns-url': 'ftp://x.example.com' }, {}, /unsupported scheme/],
    [{ 'dyndns-format': 'yaml' }, {}, /--dyndns-format: "yaml" is not one of json, xml, plain/],
    [{}, { DDEDGE_VIA: 'carrier-pigeon' }, /DDEDGE_VIA: "carrier-pigeon" is not one of auto, dyndns, api/],
    [{ ip: '300.1.2.3' }, {}, /--ip: "300.1.2.3" is not an IPv4 address/],
    [{ ip: '2a00::1' }, {}, /--ip: "2a00::1" is not an IPv4 address/],
    [{ ip6: '81.0.2.15' }, {}, /--ip6: "81.0.2.15" is not an IPv6 address/],
    [{ 'ip-source': ['whatismyip'] }, {}, /unknown IPv4 source "whatismyip"; use url:<URL>/],
    [{ 'ip-source': ['url:http://echo.example.net/'] }, {}, /http:\/\/ is allowed only for loopback/],
    [{ 'ip-source': ['server', 'ipify'] }, {}, /cannot be combined/],
    [{ 'ip-source': ['dns:myip.opendns.com@resolver1'] }, {}, /must be an IP address/],
    [{ quorum: '0' }, {}, /--quorum: "0" is not a whole number of at least 1/],
    [{ quorum: '9' }, {}, /--quorum: 9 is more than the 6 IPv4 sources/],
    [{ 'max-age': 'forever' }, {}, /--max-age: "forever" is not a duration/],
    [{ timeout: '0s' }, {}, /--timeout: 0s is under the minimum of 100ms/],
    [{ interval: '1s' }, {}, /--interval: 1s is under the minimum of 30s/],
    [{}, { DDEDGE_IPV6: 'maybe' }, /DDEDGE_IPV6: "maybe" is not a boolean/],
    [{}, { DDEDGE_ALLOW_PRIVATE_IP: '2' }, /DDEDGE_ALLOW_PRIVATE_IP: "2" is not a boolean/],
    [{ 'log-level': 'trace' }, {}, /--log-level: "trace" is not one of error, warn, info, debug/],
    [{ 'log-format': 'xml' }, {}, /--log-format: "xml" is not one of text, json/],
    [{ host: ['not a host'] }, {}, /--host: "not a host" is not a fully qualified host name/],
    [{ host: ['localhost'] }, {}, /is not a fully qualified host name/],
    [{ service: 'bad_domain' }, {}, /--service: "bad_domain" is not a domain name/],
    [{ 'dyndns-key-param': 'token' }, {}, /is not one of password, apikey/],
  ])('%j %j', (flags, env, pattern) => {
    expect(problem(flags, env)).toMatch(pattern);
  });
  it('reports every problem at once', () => {
    const message = problem({ 'dyndns-format': 'yaml', ip: 'x' });
    expect(message).toMatch(/invalid configuration:\n.*dyndns-format[\s\S]*--ip/);
  });
});

describe('what a cycle needs', () => {
  it.each<[Record<string, string>, FlagValues, RegExp]>([
    [{ DDEDGE_HOSTS: '' }, {}, /no host to update/],
    [{ DDEDGE_DYNDNS_KEY: '' }, {}, /DDEDGE_DYNDNS_KEY is missing/],
    [{ DDEDGE_DYNDNS_USER: '', DDEDGE_DYNDNS_KEY: '' }, {}, /no credentials/],
    [{ DDEDGE_API_USER: 'x' }, {}, /DDEDGE_API_PASSWORD is missing/],
    [{}, { via: 'api' }, /--via api needs DDEDGE_API_USER/],
    [{}, { ipv6: true }, /--ipv6 keeps AAAA records through the registrar API/],
  ])('%j %j', (env, flags, pattern) => {
    expect(problem(flags, env)).toMatch(pattern);
  });
  it('ip, status and health need neither hosts nor credentials', () => {
    expect(load({}, { DDEDGE_HOSTS: '', DDEDGE_DYNDNS_USER: '', DDEDGE_DYNDNS_KEY: '' }, 'detect').hosts).toEqual([]);
  });
});
