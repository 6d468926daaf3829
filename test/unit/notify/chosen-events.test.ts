// `?events=failing,recovered` on a notification URL: that URL receives only those events, the
// parameter is ddedge's (the service never sees it), and a name ddedge never sends is refused.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/lib/log.js';
import { Notifier } from '../../../src/notify/notifier.js';
import { parseNotifyTarget } from '../../../src/notify/target.js';
import { waitUntil } from '../../helpers/wait.js';

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

async function receiver(): Promise<{ url: string; got: { path: string; event: string }[] }> {
  const got: { path: string; event: string }[] = [];
  const s = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ path: req.url ?? '', event: JSON.parse(body).event });
      res.end('ok');
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`, got };
}

const event = (name: 'changed' | 'failing' | 'recovered', host: string) => ({
  event: name,
  time: new Date(0).toISOString(),
  host,
  message: `${host} ${name}`,
});

describe('choosing the events of a notification URL', () => {
  it('sends only the chosen events, and the service never sees the parameter', async () => {
    const alerts = await receiver();
    const all = await receiver();
    const notifier = new Notifier([`${alerts.url}?events=failing,recovered&x=1`, all.url], silentLogger);
    notifier.enqueue([event('changed', 'a.example.com'), event('failing', 'b.example.com')]);
    notifier.enqueue([event('recovered', 'b.example.com')]);
    await waitUntil(() => all.got.length === 3 && alerts.got.length === 2, 'the notifications');
    expect(alerts.got).toEqual([
      { path: '/hook?x=1', event: 'failing' },
      { path: '/hook?x=1', event: 'recovered' },
    ]);
    expect(all.got.map((g) => g.event)).toEqual(['changed', 'failing', 'recovered']);
  });

  it('refuses an event ddedge never sends, and an empty choice, naming the ones it does', () => {
    expect(() => parseNotifyTarget('https://hooks.example.net/x?events=failing,down', 'DDEDGE_NOTIFY')).toThrow(
      /DDEDGE_NOTIFY: events= names "down", not events ddedge sends; choose among changed, failing, recovered/,
    );
    expect(() => parseNotifyTarget('https://hooks.example.net/x?events=', 'DDEDGE_NOTIFY')).toThrow(/events= names /);
    expect(parseNotifyTarget('ntfy://ntfy.example.net/topic?events=Zone-Changed', 'x').events).toEqual(
      new Set(['zone-changed']),
    );
  });
});
