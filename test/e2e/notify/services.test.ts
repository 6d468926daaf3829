// Notifications through the built file: each service's request shape as its documentation
// gives it, checked by local HTTPS receivers (the tests' CA); what update sends and when;
// retries; a failing notifier is a warning; secrets never in a message or a log.
import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { parseFault } from '../../../src/sandbox/faults.js';
import { agentEnv } from '../../helpers/agent-env.js';
import { CANARY, runDist, startDist, waitForOutput } from '../../helpers/cli.js';
import { waitUntil } from '../../helpers/wait.js';
import { startServer, tlsFiles, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const sandbox = useSandbox();
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** An HTTPS receiver on 127.0.0.1 recording every request; `statuses` answers in turn (then 200). */
async function receiver(statuses: number[] = []): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = await startServer(
    (req, res, body) => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    },
    { tls: true },
  );
  servers.push(server);
  return { base: server.url.replace(/^https:\/\//, '').replace(/\/$/, ''), seen };
}

const tlsEnv = (extra: Record<string, string> = {}) => ({
  ...agentEnv(sandbox),
  NODE_EXTRA_CA_CERTS: tlsFiles().ca,
  ...extra,
});

describe('ddedge notify test: each service in its documented shape', () => {
  const cases: { name: string; url: (base: string) => string; check: (r: Seen) => void }[] = [
    {
      // Generic webhook: the contract's JSON document {"event","time","host","type","old","new","message"}.
      name: 'generic JSON webhook (https://)',
      url: (base) => `https://${base}/hook/abc`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/hook/abc' });
        expect(r.headers['content-type']).toBe('application/json');
        expect(JSON.parse(r.body)).toMatchObject({
          event: 'test',
          time: expect.any(String),
          host: null,
          type: null,
          old: null,
          new: null,
          message: expect.stringContaining('test message'),
        });
      },
    },
    {
      // https://docs.ntfy.sh/publish/: "POST /mytopic" with the message as the body; title in the
      // "Title" header (X-Title, Title, t), tags in "Tags"; access tokens as "Authorization: Bearer tk_…".
      name: 'ntfy',
      url: (base) => `ntfy+https://:tk_secrettoken123@${base}/ddedge-alerts`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/ddedge-alerts' });
        expect(r.headers.title).toBe('ddedge: test message');
        expect(r.headers.tags).toBeTruthy();
        expect(r.headers.authorization).toBe('Bearer tk_secrettoken123');
        expect(r.body).toContain('test message');
      },
    },
    {
      // https://gotify.net/docs/pushmsg: POST /message with the app token (query ?token= or the
      // X-Gotify-Key header) and a JSON {title, message, priority}.
      name: 'Gotify',
      url: (base) => `gotify+https://${base}/message?token=AppTok3nGotify`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/message' });
        expect(r.headers['x-gotify-key']).toBe('AppTok3nGotify');
        expect(JSON.parse(r.body)).toEqual({
          title: 'ddedge: test message',
          message: expect.stringContaining('test message'),
          priority: 5,
          extras: { 'client::display': { contentType: 'text/plain' } },
        });
      },
    },
    {
      // https://discord.com/developers/docs/resources/webhook#execute-webhook:
      // POST /webhooks/{webhook.id}/{webhook.token} with a JSON {content} (up to 2,000 characters).
      name: 'Discord',
      url: (base) => `discord+https://${base}/api/webhooks/123456789012345678/DiscordT0kenValue`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/api/webhooks/123456789012345678/DiscordT0kenValue' });
        const body = JSON.parse(r.body);
        expect(body).toEqual({ content: expect.any(String), allowed_mentions: { parse: [] }, flags: 4 });
        expect(body.content).toContain('test message');
      },
    },
    {
      // https://api.slack.com/messaging/webhooks: POST to the incoming webhook URL a JSON {"text": …}.
      name: 'Slack',
      url: (base) => `slack+https://${base}/services/T000/B000/SlackSecretXXXX`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/services/T000/B000/SlackSecretXXXX' });
        expect(r.headers['content-type']).toBe('application/json');
        expect(Object.keys(JSON.parse(r.body))).toEqual(['text']);
      },
    },
    {
      // https://core.telegram.org/bots/api#sendmessage (and #making-requests: POST
      // https://api.telegram.org/bot<token>/METHOD_NAME with application/json): {chat_id, text}.
      name: 'Telegram',
      url: (base) => `telegram+https://${base}/bot123456:TelegramTokenABC/sendMessage?chat_id=-1001234`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/bot123456:TelegramTokenABC/sendMessage' });
        expect(JSON.parse(r.body)).toEqual({
          chat_id: '-1001234',
          text: expect.stringContaining('test message'),
          link_preview_options: { is_disabled: true },
        });
      },
    },
    {
      // https://spec.matrix.org/latest/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid:
      // PUT /_matrix/client/v3/rooms/{roomId}/send/{eventType}/{txnId}, access token as
      // "Authorization: Bearer", body an m.room.message {msgtype: "m.text", body}.
      name: 'Matrix',
      url: (base) => `matrix+https://:syt_MatrixAccessToken@${base}/?room=!abcdef:example.org`,
      check: (r) => {
        expect(r.method).toBe('PUT');
        expect(r.url).toMatch(/^\/_matrix\/client\/v3\/rooms\/!abcdef%3Aexample\.org\/send\/m\.room\.message\/[\w-]+$/);
        expect(r.headers.authorization).toBe('Bearer syt_MatrixAccessToken');
        expect(JSON.parse(r.body)).toEqual({
          msgtype: 'm.text',
          body: expect.stringContaining('test message'),
          'm.mentions': {},
        });
      },
    },
    {
      // https://pushover.net/api: POST https://api.pushover.net/1/messages.json with token, user,
      // message (and title).
      name: 'Pushover',
      url: (base) => `pushover+https://${base}/1/messages.json?token=PushoverAppToken1&user=PushoverUserKey1`,
      check: (r) => {
        expect(r).toMatchObject({ method: 'POST', url: '/1/messages.json' });
        expect(r.headers['content-type']).toBe('application/x-www-form-urlencoded');
        const form = Object.fromEntries(new URLSearchParams(r.body));
        expect(form).toEqual({
          token: 'PushoverAppToken1',
          user: 'PushoverUserKey1',
          title: 'ddedge: test message',
          message: expect.stringContaining('test message'),
        });
      },
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const { base, seen } = await receiver();
      const url = c.url(base);
      const result = await runDist(['notify', 'test', url], tlsEnv());
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/: sent \(HTTP 200\)\n$/);
      expect(seen).toHaveLength(1);
      c.check(seen[0]!);
      // The output names the service and host only: no token, no path.
      expect(result.stdout).not.toContain(
        new URL(url.replace(/^\w+\+/, '')).pathname.split('/').filter(Boolean).at(-1) ?? '\u0000',
      );
    });
  }

  it('a URL from DDEDGE_NOTIFY_FILE; a refusing service is exit 4 and named by host only', async () => {
    const { base, seen } = await receiver([403]);
    const dir = agentEnv(sandbox).DDEDGE_STATE_DIR!;
    const file = `${dir}/notify-url`;
    // A comment line and a blank one, as people write such files.
    (await import('node:fs')).writeFileSync(
      file,
      `# the team's channel\n\ndiscord+https://${base}/api/webhooks/1/${CANARY}\n`,
      { mode: 0o600 },
    );
    const result = await runDist(['notify', 'test'], tlsEnv({ DDEDGE_NOTIFY_FILE: file }));
    expect(result.code, result.stderr).toBe(4);
    expect(result.stdout).toContain(`discord at ${base}: failed: discord at ${base} answered HTTP 403`);
    expect(seen).toHaveLength(1);
    expect(result.stdout + result.stderr).not.toContain(CANARY);
  });

  it('a bad URL in DDEDGE_NOTIFY_FILE is named by its line, not echoed', async () => {
    const file = `${agentEnv(sandbox).DDEDGE_STATE_DIR!}/notify-bad`;
    (await import('node:fs')).writeFileSync(file, `# comment\nftp://x.example/${CANARY}\n`, { mode: 0o600 });
    const result = await runDist(['notify', 'test'], tlsEnv({ DDEDGE_NOTIFY_FILE: file }));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/DDEDGE_NOTIFY_FILE.* line 2: /);
    expect(result.stderr + result.stdout).not.toContain(CANARY);
  });

  it('a bad URL is exit 2, sends nothing and is not echoed', async () => {
    for (const url of [
      `ftp://x.example/${CANARY}`,
      `carrierpigeon://x.example/${CANARY}`,
      `http://notify.example/${CANARY}`,
      `telegram://telegram.example/bot${CANARY}/sendMessage`,
    ]) {
      const result = await runDist(['notify', 'test', url], tlsEnv());
      expect(result.code, url).toBe(2);
      expect(result.stderr + result.stdout).not.toContain(CANARY);
    }
  });
});

describe('update --notify', () => {
  const events = (seen: Seen[]) => seen.map((r) => JSON.parse(r.body) as Record<string, unknown>);

  it('an address change is sent with old and new; nothing when nothing changed; never a secret', async () => {
    const { base, seen } = await receiver();
    const env = tlsEnv({ DDEDGE_NOTIFY: `https://${base}/hook` });
    expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    const moved = await runDist(['update', '--ip', '81.0.2.16'], env);
    expect(moved.code).toBe(0);
    expect(events(seen)).toMatchObject([
      {
        event: 'changed',
        host: 'home.example.com',
        type: 'A',
        old: null,
        new: '81.0.2.15',
        message: 'home.example.com A: first sent 81.0.2.15 (via dyndns)',
      },
      {
        event: 'changed',
        host: 'home.example.com',
        type: 'A',
        old: '81.0.2.15',
        new: '81.0.2.16',
        message: 'home.example.com A: 81.0.2.15 -> 81.0.2.16 (via dyndns)',
      },
    ]);
    const key = sandbox.model.account.dyndnsKey;
    for (const r of seen) expect(r.body).not.toContain(key);
  });

  it('a failure is told once it lasts 3 cycles, then its recovery; a blip is not told', async () => {
    const { base, seen } = await receiver();
    const env = tlsEnv({ DDEDGE_NOTIFY: `https://${base}/hook` });
    sandbox.faults.push(parseFault('dyndns=503'));
    for (let i = 0; i < 4; i++) expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(4);
    expect(events(seen).map((e) => e.event)).toEqual(['failing']);
    expect(events(seen)[0]).toMatchObject({
      host: 'home.example.com',
      type: 'A',
      message: expect.stringContaining('failing for 3 cycles in a row'),
    });
    sandbox.faults.length = 0;
    expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(0);
    expect(events(seen).map((e) => e.event)).toEqual(['failing', 'recovered', 'changed']);
  });

  it('rejected credentials are told at once, and only once', async () => {
    const { base, seen } = await receiver();
    const env = tlsEnv({ DDEDGE_NOTIFY: `https://${base}/hook`, DDEDGE_DYNDNS_KEY: CANARY });
    for (let i = 0; i < 2; i++) expect((await runDist(['update', '--ip', '81.0.2.15'], env)).code).toBe(3);
    expect(events(seen).map((e) => e.event)).toEqual(['rejected']);
    expect(seen[0]!.body).not.toContain(CANARY);
  });

  it('a failing notifier is retried with backoff, then a warning: the update still succeeds', async () => {
    const { base, seen } = await receiver([503, 503, 503]);
    const result = await runDist(
      ['update', '--ip', '81.0.2.15'],
      tlsEnv({ DDEDGE_NOTIFY: `discord+https://${base}/api/webhooks/1/${CANARY}` }),
    );
    expect(result.code).toBe(0);
    expect(seen).toHaveLength(3);
    expect(result.stderr).toContain(
      `notification "changed" to discord at ${base} not delivered (discord at ${base} answered HTTP 503)`,
    );
    expect(result.stderr).not.toContain(CANARY);
  });

  it('a second try that works is enough', async () => {
    const { base, seen } = await receiver([502]);
    const result = await runDist(['update', '--ip', '81.0.2.15'], tlsEnv({ DDEDGE_NOTIFY: `https://${base}/hook` }));
    expect(result.code).toBe(0);
    expect(seen).toHaveLength(2);
    expect(result.stderr).not.toContain('not delivered');
  });

  it('a bad --notify URL is a configuration error (exit 2) naming the setting, before any provider call', async () => {
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--notify', `gotify://push.example/message`],
      tlsEnv(),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--notify: Gotify needs the application token');
    expect(sandbox.calls.size).toBe(0);
  });
});

describe('daemon --notify', () => {
  it('a cycle never waits for a notification: the next one runs while the service still holds the first message', async () => {
    const held: Seen[] = [];
    const server = await startServer(
      (req, _res, body) => held.push({ method: req.method!, url: req.url!, headers: req.headers, body }),
      { tls: true },
    );
    servers.push(server);
    const base = server.url.replace(/^https:\/\//, '').replace(/\/$/, '');
    const daemon = startDist(
      ['daemon', '--ip', '81.0.2.15'],
      tlsEnv({ DDEDGE_NOTIFY: `https://${base}/hook`, DDEDGE_INTERVAL: '1h' }),
    );
    try {
      await waitForOutput(daemon, 'stderr', (t) => / set to 81\.0\.2\.15/.test(t));
      daemon.kill('SIGUSR1');
      const log = await waitForOutput(daemon, 'stderr', (t) => /SIGUSR1: cycle done/.test(t));
      // A notifier that held up cycles would have given up on the silent service (3 attempts of
      // 10 s) and said so before this cycle could end.
      expect(log).not.toContain('not delivered');
      await waitUntil(() => held.length > 0, 'the message at the silent service');
      expect(held.map((r) => JSON.parse(r.body).event)).toEqual(['changed']);
    } finally {
      daemon.kill('SIGTERM');
      expect((await daemon.result).code).toBe(0);
    }
  });

  it('on SIGTERM the last messages still go out (within a short bound)', async () => {
    const { base, seen } = await receiver();
    const daemon = startDist(
      ['daemon', '--ip', '81.0.2.15'],
      tlsEnv({ DDEDGE_NOTIFY: `https://${base}/hook`, DDEDGE_INTERVAL: '1h' }),
    );
    await waitForOutput(daemon, 'stderr', (t) => / set to 81\.0\.2\.15/.test(t));
    daemon.kill('SIGTERM');
    expect((await daemon.result).code).toBe(0);
    expect(seen.map((r) => JSON.parse(r.body).event)).toEqual(['changed']);
  });
});
