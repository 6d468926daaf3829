// Traffic nobody authenticated cannot spend or silence the gateway's notifications, nor write in
// them. A client on loopback signs queries under 30 key names of its own (5 each, the burst
// threshold): they are told as one digest of refusals without a verified key, naming the source
// and none of the names. A real key refused 5 times under a hostile zone name makes its own
// burst, whose text reaches each service as plain text. Meanwhile a change made at the provider
// is still told, to every URL. Through the dyndns2 door a key counts only with its right password;
// over DNS a key whose MAC matched but whose time is off (BADTIME) is still that key.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryPacket, udpClient } from '../../helpers/dns-wire.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { signed, updateMessage } from '../../helpers/update-wire.js';
import { useGateway, waitFor } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const CLAIMED = [
  '<!channel>',
  '<https://evil.example/login|Click-to-reauthorize>',
  '@everyone',
  '[Click-here](https://evil.example/x)',
  ...Array.from({ length: 26 }, (_, i) => `flood-${i}.invented`),
];
/** A zone name a real key's holder sends updates for: not served, refused, told in that key's burst. */
const HOSTILE_ZONE = '<!here><https://evil.example/verify|verify-now>';

const ROUTES = {
  generic: 'hook/generic',
  slack: 'services/T0/B0/slackhook',
  discord: 'api/webhooks/1/discordhook',
  telegram: 'botT0k/sendMessage',
  badtime: 'hook/badtime',
} as const;
type Route = keyof typeof ROUTES;

let receiver: TestServer;
let behind = 0;
const bodies = (route: Route) =>
  receiver.requests
    .filter((r) => r.url.startsWith(`/${ROUTES[route]}`))
    .map((r) => JSON.parse(r.body) as Record<string, unknown>);
/** The generic documents of one event. */
const documents = (event: string) => bodies('generic').filter((d) => d.event === event);
/** Each service's messages that mention `text` (the services carry no event field). */
const mentioning = (route: Exclude<Route, 'generic' | 'badtime'>, text: RegExp) =>
  bodies(route).filter((b) => text.test(String(b.text ?? b.content)));

const sandbox = useSandbox({ per: 'file' });
beforeAll(async () => {
  receiver = await startServer((_req, res) => res.end('{}'));
});
afterAll(async () => {
  await receiver?.close();
});

describe('gateway --notify under a flood of refusals', () => {
  const gateway = useGateway(() => ({
    apiUrl: sandbox.url,
    primaryName: null,
    args: [
      '--refresh',
      '1s',
      '--notify',
      `${receiver.url}${ROUTES.generic}`,
      '--notify',
      `slack+${receiver.url}${ROUTES.slack}`,
      '--notify',
      `discord+${receiver.url}${ROUTES.discord}`,
      '--notify',
      `telegram+${receiver.url}${ROUTES.telegram}?chat_id=7`,
    ],
    door: {},
    keys: [
      { name: 'admin', rules: ['grant "admin" zonesub;'] },
      { name: 'router', rules: ['grant "router" name home.example.com A;'] },
      { name: 'office', rules: ['grant "office" name office.example.com A;'] },
    ],
  }));
  /** Adds a record at the provider, behind the gateway's back: a zone-changed notification follows. */
  const changeBehind = () => {
    behind++;
    sandbox.model.services
      .find((s) => s.name === 'example.com')!
      .dns.push({
        entityID: String(720_000 + behind),
        name: `behind${behind}.example.com`,
        type: 'TXT',
        ttl: '300',
        priority: '-',
        value: 'made elsewhere',
      });
  };
  afterAll(async () => {
    await gateway.stop();
  });

  it('30 invented key names make one digest; a zone changed at the provider is still told everywhere', async () => {
    const dns = udpClient(gateway.port);
    let id = 1;
    try {
      for (const name of CLAIMED)
        for (let i = 0; i < 5; i++) {
          const key = { name, algorithm: 'hmac-sha256' as const, secret: randomBytes(32) };
          await dns.ask(signed(queryPacket({ name: 'example.com', type: 6, id: id++ }), key));
        }
      const admin = gateway.keys.get('admin')!;
      for (let i = 0; i < 5; i++) await dns.ask(signed(updateMessage({ id: id++, zone: HOSTILE_ZONE }), admin));
    } finally {
      dns.close();
    }
    changeBehind();
    await waitFor(
      () =>
        documents('zone-changed').length === 1 &&
        mentioning('slack', /zone changed elsewhere/).length === 1 &&
        mentioning('discord', /zone changed elsewhere/).length === 1 &&
        mentioning('telegram', /zone changed elsewhere/).length === 1,
      'the zone-changed notification at every URL',
    );
    await waitFor(() => documents('refused').length >= 2, 'the refusal notifications');
    for (const route of ['slack', 'discord', 'telegram'] as const)
      await waitFor(() => mentioning(route, /refused/).length >= 2, `the refusal notifications at ${route}`);

    // One digest for everything no key verified, and one burst for the real key: nothing more.
    const refused = documents('refused');
    expect(refused).toHaveLength(2);
    const digest = refused.find((d) => d.key === null)!;
    expect(digest).toMatchObject({
      host: null,
      message: expect.stringContaining('5 refused without a verified key since the gateway started'),
    });
    expect(digest.message).toContain('127.0.0.1 (5)');
    expect(refused.find((d) => d.key === 'admin')).toMatchObject({ host: HOSTILE_ZONE });
    for (const route of ['slack', 'discord', 'telegram'] as const) expect(mentioning(route, /refused/)).toHaveLength(2);

    // The names a client claimed reach no service at all.
    const everything = JSON.stringify(receiver.requests);
    for (const text of ['channel', 'reauthorize', 'everyone', 'Click-here', 'flood-'])
      expect(everything).not.toContain(text);
  });

  it('outside text in a notification reaches each service as plain text', () => {
    const slack = mentioning('slack', /refused/).map((b) => String(b.text));
    expect(slack.every((t) => !/[<>]/.test(t))).toBe(true);
    expect(slack.join('\n')).toContain('&lt;!here&gt;&lt;https://evil.example/verify|verify-now&gt;');

    const discord = mentioning('discord', /refused/);
    for (const body of discord) {
      expect(body.allowed_mentions).toEqual({ parse: [] });
      expect(Number(body.flags) & 4).toBe(4);
    }
    const content = discord.map((b) => String(b.content).replace(/^\*\*(.*)\*\*\n/, '$1\n')).join('\n');
    expect(content).toContain('\\<!here\\>\\<https://evil.example/verify\\|verify\\-now\\>');
    expect(content).not.toMatch(/(^|[^\\])(\\\\)*[<>@[\]()*_~`|]/);

    for (const body of mentioning('telegram', /refused/)) {
      expect(body.parse_mode).toBeUndefined();
      expect(body.link_preview_options).toEqual({ is_disabled: true });
    }
  });

  it('through the dyndns2 door: a key refused with its right password is told under it, a wrong password is not', async () => {
    const basic = (user: string, password: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
    });
    const ask = async (host: string, user: string, password: string) =>
      (
        await fetch(`${gateway.dyndns2}/nic/update?hostname=${host}&myip=81.0.2.60`, {
          headers: basic(user, password),
        })
      ).text();
    for (let i = 0; i < 5; i++)
      expect(await ask(`other${i}.example.com`, 'router', gateway.secret('router'))).toMatch(/^nohost/);
    await waitFor(() => documents('refused').some((d) => d.key === 'router'), "the router key's burst");
    expect(documents('refused').find((d) => d.key === 'router')).toMatchObject({
      message: expect.stringContaining('5 refused within 5 min'),
    });
    // A key's name with a wrong password is a claim, not a key: counted under the source (whose digest
    // was told above, and is quiet for an hour). A zone-changed after them is told, and nothing under "office".
    for (let i = 0; i < 5; i++) expect(await ask('office.example.com', 'office', 'not-the-secret')).toMatch(/badauth/);
    const told = documents('zone-changed').length;
    changeBehind();
    await waitFor(() => documents('zone-changed').length > told, 'a zone-changed after the wrong passwords');
    expect(documents('refused').filter((d) => d.key === 'office')).toEqual([]);
    expect(documents('refused')).toHaveLength(3);
  });
});

// Its own gateway: the refusals' allowance above is spent by the time this would run.
describe('a real key whose signature verified but whose time is off (BADTIME)', () => {
  const gateway = useGateway(() => ({
    apiUrl: sandbox.url,
    primaryName: null,
    args: ['--notify', `${receiver.url}${ROUTES.badtime}`],
    keys: [{ name: 'office', rules: ['grant "office" name office.example.com A;'] }],
  }));
  afterAll(async () => {
    await gateway.stop();
  });

  it('is told under that key', async () => {
    const dns = udpClient(gateway.port);
    const office = gateway.keys.get('office')!;
    const anHourAgo = Math.floor(Date.now() / 1000) - 3600;
    try {
      for (let i = 0; i < 5; i++)
        await dns.ask(signed(queryPacket({ name: 'example.com', type: 6, id: 900 + i }), office, anHourAgo));
    } finally {
      dns.close();
    }
    await waitFor(
      () =>
        bodies('badtime')
          .filter((d) => d.event === 'refused')
          .some((d) => d.key === 'office'),
      "the office key's burst",
    );
    expect(
      bodies('badtime')
        .filter((d) => d.event === 'refused')
        .find((d) => d.key === 'office')!.message,
    ).toContain('BADTIME');
  });
});
