// The sandbox name server's log: a line per query only when asked (debug), otherwise a count
// of the queries now and then (a line per query to a pipe cut the queries answered by 4).
import { afterEach, describe, expect, it } from 'vitest';
import { demoModel } from '../../../src/sandbox/model.js';
import { startNameServer, type NameServer } from '../../../src/sandbox/dns/name-server.js';
import { queryPacket, udpExchange } from '../../helpers/dns-wire.js';
import { waitUntil } from '../../helpers/wait.js';

let server: NameServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function ask(port: number, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await udpExchange(port, queryPacket({ id: i, name: 'www.example.com', type: 1 }));
}

describe('sandbox name server log', () => {
  it('writes no line per query by default, and a count of them once per period', async () => {
    const lines: string[] = [];
    server = await startNameServer({
      model: demoModel(),
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
      summaryMs: 200,
    });
    await ask(server.port, 3);
    expect(lines.filter((l) => l.includes('www.example.com'))).toEqual([]);
    // A busy machine may spread the three over two periods: the periods' counts add up to them.
    const counted = () => lines.reduce((sum, line) => sum + Number(/^DNS: (\d+) quer/.exec(line)?.[1] ?? 0), 0);
    await waitUntil(() => counted() >= 3, 'the summary lines of the periods');
    expect(counted()).toBe(3);
    for (const line of lines) {
      expect(line).toMatch(/^DNS: (1 query|[23] queries) in the last 0\.2 s \(UDP [123], TCP 0\)/);
    }
  });

  it('writes a line per query at debug', async () => {
    const lines: string[] = [];
    server = await startNameServer({
      model: demoModel(),
      host: '127.0.0.1',
      port: 0,
      log: (l) => lines.push(l),
      eachQuery: true,
    });
    await ask(server.port, 2);
    expect(lines.filter((l) => /^DNS udp www\.example\.com A -> NOERROR/.test(l))).toHaveLength(2);
  });
});
