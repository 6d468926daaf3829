// `ddedge acme present` waits until the name servers show the value: each server is asked
// directly, again and again, within --propagation-timeout. The servers here are scriptable
// (test/helpers/hostile-dns.ts) and answer from the sandbox's zone, so they follow the API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DnsMessage } from '../../../src/dns/wire/types.js';
import { encodeMessage } from '../../../src/dns/wire/message.js';
import { acmeEnv, challengeValues, zoneAnswer as answerOfZone } from '../../helpers/acme.js';
import { runDist, runMain } from '../../helpers/cli.js';
import { answerTo, framed, startHostileDns, type HostileDns, type Reply } from '../../helpers/hostile-dns.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const NAME = '_acme-challenge.example.com';
const V1 = 'gfj9Xq-bB1rPpU0vTyvDBKpDqsm9dTHSpg9_5xJX0zk';

const sandbox = useSandbox();
const servers: HostileDns[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function nameServer(handlers: { udp?: Reply; tcp?: Reply }): Promise<string> {
  const server = await startHostileDns(handlers, 30_000);
  servers.push(server);
  return `${server.host}:${server.port}`;
}

const zoneAnswer = (query: DnsMessage): Buffer => answerOfZone(sandbox, query);

/** The built file for the first test; main() in this process for the rest (the same waiting, no process start). */
const present = (servers: string[], extra: Record<string, string> = {}, args: string[] = [], run = runMain) =>
  run(
    ['acme', 'present', `${NAME}.`, V1, ...args],
    acmeEnv(sandbox, { DDEDGE_DNS_SERVERS: servers.join(','), ...extra }),
  );

describe('acme present waits until every server shows the value', () => {
  it('returns once both servers answer with it, one of them lagging behind the API', async () => {
    let asked = 0;
    const prompt = await nameServer({ udp: zoneAnswer });
    // Shows the zone as it was until it has been asked three times (a secondary catching up).
    const lagging = await nameServer({ udp: (q) => (++asked > 3 ? zoneAnswer(q) : answerTo(q, [])) });
    const result = await present([prompt, lagging], {}, [], runDist);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(`^${NAME} TXT "${V1}" added; visible on 2 name servers after \\d+\\.\\ds\\n$`),
    );
    expect(asked).toBe(4);
  });

  it('--json reports the servers that show it', async () => {
    const server = await nameServer({ udp: zoneAnswer });
    const result = await present([server], {}, ['--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ name: NAME, value: V1, action: 'created', visibleOn: [server] });
  });

  it('retries over TCP when the UDP answer is truncated', async () => {
    let tcp = 0;
    const server = await nameServer({
      udp: (q) => answerTo(q, [], { truncated: true }),
      tcp: (q) => {
        tcp++;
        return framed(zoneAnswer(q));
      },
    });
    expect((await present([server])).code).toBe(0);
    expect(tcp).toBeGreaterThan(0);
  });

  it('ignores answers with another ID (spoofs) and takes the real one', async () => {
    const server = await nameServer({
      udp: (q) => [
        encodeMessage({ id: (q.id + 1) % 65536, response: true, questions: q.questions, answers: [] }),
        zoneAnswer(q),
      ],
    });
    expect((await present([server])).code).toBe(0);
  });
});

describe('running out of time: exit 4, the record stays for the cleanup', () => {
  it.each([
    ['a server that never answers', (): Reply => () => undefined, /timed out|no answer/],
    [
      'a server that answers only with another ID',
      (): Reply => (q) =>
        encodeMessage({ id: (q.id + 1) % 65536, response: true, questions: q.questions, answers: [] }),
      /another ID|no answer|timed out/,
    ],
    ['a server that never gets the value', (): Reply => (q) => answerTo(q, []), /answers without it/],
    ['a server that answers SERVFAIL', (): Reply => (q) => answerTo(q, [], { rcode: 2 }), /SERVFAIL/],
  ])('%s', async (_name, reply, reason) => {
    const server = await nameServer({ udp: reply(), tcp: () => undefined });
    const env = acmeEnv(sandbox, {
      DDEDGE_DNS_SERVERS: server,
      DDEDGE_PROPAGATION_TIMEOUT: '2500ms',
      DDEDGE_TIMEOUT: '500ms',
    });
    const started = Date.now();
    const result = await runMain(['acme', 'present', NAME, V1], env);
    expect(result.code).toBe(4);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(result.stderr).toContain(`${NAME} TXT "${V1}" is not visible after 2.5s`);
    expect(result.stderr).toMatch(reason);
    expect(result.stderr).toContain('the record stays for the cleanup');
    // Left in place and remembered, so the client's cleanup removes it.
    expect(challengeValues(sandbox, NAME)).toEqual([V1]);
    expect(
      JSON.parse(readFileSync(join(env.DDEDGE_STATE_DIR!, 'acme', 'challenges.json'), 'utf8')).challenges,
    ).toMatchObject([{ name: NAME, value: V1 }]);
    const cleanup = await runMain(['acme', 'cleanup', NAME, V1], env);
    expect(cleanup.code).toBe(0);
    expect(challengeValues(sandbox, NAME)).toEqual([]);
  });

  it('--no-wait returns once the API has accepted the record, asking no name server', async () => {
    let asked = 0;
    const server = await nameServer({ udp: () => void asked++ });
    expect((await present([server], {}, ['--no-wait'])).code).toBe(0);
    expect(asked).toBe(0);
  });

  it.each(['127.0.0.1:99999', 'not a server', '[::1'])(
    'a bad --dns-server %s is exit 2, before any change',
    async (bad) => {
      const result = await runMain(['acme', 'present', NAME, V1, '--dns-server', bad], acmeEnv(sandbox));
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`--dns-server: "${bad}"`);
      expect(challengeValues(sandbox, NAME)).toEqual([]);
    },
  );
});
