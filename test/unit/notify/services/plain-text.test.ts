// Text from outside (a key name, a host name, record data, a provider's message) reaches each
// service as plain text: whatever a client chose cannot become a mention, a link with a label of
// its choosing, or formatting, in the way each service renders what it is sent.
import { describe, expect, it } from 'vitest';
import type { NotifyEvent } from '../../../../src/notify/message.js';
import { SERVICES } from '../../../../src/notify/target.js';

const HOSTILE =
  '<!channel> <!here> @here @everyone <@U123> <#C1> <https://evil.example/login|Click-to-reauthorize> ' +
  '[Click](https://evil.example/x) **bold** *b* _i_ ~s~ `c` <b>html</b> &amp; <a href="https://evil.example">a</a>';

const event: NotifyEvent = {
  event: 'refused',
  time: '2026-01-01T00:00:00.000Z',
  host: '<!channel>.example.com',
  key: '<!channel>',
  message: HOSTILE,
};

const build = (service: keyof typeof SERVICES, url: string) => SERVICES[service].build(new URL(url), event);
const json = (service: keyof typeof SERVICES, url: string) =>
  JSON.parse(build(service, url).body) as Record<string, unknown>;

describe('outside text as plain text, for each service', () => {
  it('Slack: &, < and > escaped as Slack documents, so no <…> control sequence (mention, link) is formed', () => {
    const body = json('slack', 'https://hooks.slack.com/services/T0/B0/x');
    // No link_names (nor parse): a bare @here or #channel is not made a mention.
    expect(Object.keys(body)).toEqual(['text']);
    const text = String(body.text);
    expect(text).not.toMatch(/[<>]/);
    expect(text).toContain('&lt;!channel&gt;');
    expect(text).toContain('&lt;https://evil.example/login|Click-to-reauthorize&gt;');
    expect(text).toContain('&amp;amp;');
  });

  it('Discord: markdown escaped, no mention allowed to ping, no link embedded', () => {
    const body = json('discord', 'https://discord.com/api/webhooks/1/t') as {
      content: string;
      allowed_mentions: unknown;
      flags: number;
    };
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.flags & 4).toBe(4);
    // Our own title's bold aside, no markdown or mention character is left unescaped.
    const content = body.content.replace(/^\*\*(.*)\*\*\n/, '$1\n');
    expect(content).not.toMatch(/(^|[^\\])(\\\\)*[<>@[\]()*_~`|#]/);
    expect(content).toContain('\\@everyone');
    expect(content).toContain('\\[Click\\]\\(https://evil.example/x\\)');
  });

  it('Telegram: no parse mode (plain text), no link preview', () => {
    const body = json('telegram', 'https://api.telegram.org/botT/sendMessage?chat_id=1');
    expect(body.parse_mode).toBeUndefined();
    expect(body.entities).toBeUndefined();
    expect(body.link_preview_options).toEqual({ is_disabled: true });
    expect(body.text).toContain(HOSTILE);
  });

  it('Matrix: m.text with no formatted body, and an empty m.mentions (no @room, no one)', () => {
    const body = json('matrix', 'https://:tok@matrix.example/?room=!r:example');
    expect(body.format).toBeUndefined();
    expect(body.formatted_body).toBeUndefined();
    expect(body['m.mentions']).toEqual({});
    expect(body.body).toContain(HOSTILE);
  });

  it('Gotify: the message declared text/plain, never markdown', () => {
    const body = json('gotify', 'https://gotify.example/message?token=t');
    expect(body.extras).toEqual({ 'client::display': { contentType: 'text/plain' } });
    expect(body.message).toContain(HOSTILE);
  });

  it('ntfy: a text/plain body with no Markdown header', () => {
    const out = build('ntfy', 'https://ntfy.example/topic');
    expect(out.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(Object.keys(out.headers).map((h) => h.toLowerCase())).not.toContain('markdown');
    expect(Object.keys(out.headers).map((h) => h.toLowerCase())).not.toContain('x-markdown');
  });

  it('Pushover: plain text (no html=1)', () => {
    const form = new URLSearchParams(build('pushover', 'https://api.pushover.net/1/messages.json?token=a&user=u').body);
    expect(form.get('html')).toBeNull();
    expect(form.get('message')).toContain(HOSTILE);
  });

  it('the JSON webhook: the text as data, and a refusal with no verified key has "key": null', () => {
    const body = json('generic', 'https://hook.example/x');
    expect(body.message).toBe(HOSTILE);
    const digest = JSON.parse(
      SERVICES.generic.build(new URL('https://hook.example/x'), { ...event, key: undefined }).body,
    ) as Record<string, unknown>;
    expect(digest.key).toBeNull();
  });
});
