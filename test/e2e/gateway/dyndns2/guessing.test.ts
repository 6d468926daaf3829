// Guessing a key's secret through the dyndns2 door, and what it must not cost the real router.
// Wrong tries are answered at once with `Connection: close` (no connection is held for a
// slow-down, so a crowd of guessers cannot fill the connection guard); past a handful of wrong
// tries a minute from one source (an IPv4 address, an IPv6 /64) every request from it is
// refused before its password is looked at (429, a right one too: no timing or answer tells a
// guess apart); a key's own right answer clears only that key's count; and a key guessed from
// many sources at once is refused to each source that has guessed wrong, not to a source that
// has not (the router).
import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { useGateway, waitFor, zoneLines } from '../../../helpers/use-gateway.js';
import { useSandbox } from '../../../helpers/use-sandbox.js';

const sandbox = useSandbox({ per: 'file' });
const door = useGateway(() => ({
  apiUrl: sandbox.url,
  door: {},
  keys: [
    { name: 'router', rules: ['grant "router" name home.example.com A AAAA;'] },
    // Each test guesses at a key of its own: a key guessed from many sources is held for a minute.
    ...['other', 'second', 'third', 'fourth'].map((name) => ({
      name,
      rules: [`grant "${name}" name ${name}.example.com A AAAA;`],
    })),
  ],
}));
afterAll(async () => {
  expect(await door.stop()).toBe(0);
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const right = (key = 'router') => basic(key, door.secret(key));
const wrong = (key = 'router') => basic(key, 'x'.repeat(44));
const WRONG = wrong();
const hostOf = (key: string) => (key === 'router' ? 'home.example.com' : `${key}.example.com`);

/** One request from `from` (a loopback address): status, body, connection header and time taken. */
function ask(
  from: string,
  authorization: string,
  ip = '81.0.2.1',
  key = 'router',
): Promise<{ status: number; body: string; connection: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const url = new URL(`${door.dyndns2}/nic/update?hostname=${hostOf(key)}&myip=${ip}`);
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        localAddress: from,
        headers: { authorization },
        agent: false,
        timeout: 15_000,
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            body,
            connection: String(res.headers.connection),
            ms: Date.now() - started,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer in 15 s')));
    req.on('error', reject);
    req.end();
  });
}

describe('guessing through the dyndns2 door', () => {
  it('answers a wrong password at once with 401 and Connection: close, and then refuses the source before looking at its password (a right one too)', async () => {
    const from = '127.0.0.10';
    for (let i = 0; i < 5; i++) {
      const answer = await ask(from, wrong('second'), '81.0.2.1', 'second');
      expect(answer).toMatchObject({ status: 401, body: 'badauth\n', connection: 'close' });
      expect(answer.ms).toBeLessThan(1_000);
    }
    // The sixth try in the minute is refused whatever it holds: a guesser learns nothing from it.
    const before = zoneLines(sandbox, 'second.example.com');
    const rightButLimited = await ask(from, right('second'), '81.0.2.30', 'second');
    expect(rightButLimited).toMatchObject({ status: 429, body: 'badauth\n', connection: 'close' });
    expect(rightButLimited.ms).toBeLessThan(1_000);
    expect(zoneLines(sandbox, 'second.example.com')).toEqual(before);
    await door.logged(/too many wrong passwords from 127\.0\.0\.10/);
    // Another source is not held by it.
    expect((await ask('127.0.0.1', right('second'), '81.0.2.31', 'second')).body).toBe('good 81.0.2.31\n');
  });

  it("clears only the count of the key that answered right: another key's right answer does not reset guesses at this one", async () => {
    const from = '127.0.0.11';
    for (let i = 0; i < 4; i++) expect((await ask(from, wrong('third'), '81.0.2.1', 'third')).status).toBe(401);
    expect((await ask(from, right('other'), '81.0.2.40', 'other')).body).toBe('good 81.0.2.40\n');
    expect((await ask(from, wrong('third'), '81.0.2.1', 'third')).status).toBe(401);
    expect((await ask(from, wrong('third'), '81.0.2.1', 'third')).status).toBe(429);
    // Its own key's right answer clears it, when the source is not held: at another source, 4 wrong then the right one, then 4 wrong again are all answered.
    const other = '127.0.0.12';
    for (let i = 0; i < 4; i++) expect((await ask(other, wrong('third'), '81.0.2.1', 'third')).status).toBe(401);
    expect((await ask(other, right('third'), '81.0.2.41', 'third')).body).toBe('good 81.0.2.41\n');
    for (let i = 0; i < 4; i++) expect((await ask(other, wrong('third'), '81.0.2.1', 'third')).status).toBe(401);
  });

  it('caps the guesses at one key from many sources: a source that guessed wrong is refused while the key is under attack, the router is not', async () => {
    const sources = Array.from({ length: 30 }, (_, i) => `127.0.1.${i + 1}`);
    for (const from of sources) expect((await ask(from, wrong('fourth'), '81.0.2.1', 'fourth')).status).toBe(401);
    // Each of them has guessed once; the key is past its wrong tries for the minute: a second guess from any of them is refused unheard.
    for (const from of sources.slice(0, 5))
      expect((await ask(from, wrong('fourth'), '81.0.2.1', 'fourth')).status).toBe(429);
    expect((await ask('127.0.0.1', right('fourth'), '81.0.2.50', 'fourth')).body).toBe('good 81.0.2.50\n');
  });
  it('keeps answering the real router while 5 addresses x 64 keep-alive connections send wrong passwords', async () => {
    const request = (auth: string) =>
      `GET /nic/update?hostname=home.example.com&myip=81.0.2.1 HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\n\r\n`;
    const port = Number(new URL(door.dyndns2).port);
    const sockets: Socket[] = [];
    let stop = false;
    let attackerAnswers = 0;
    const open = (from: string) => {
      if (stop) return;
      const s = connect({ port, host: '127.0.0.1', localAddress: from });
      s.on('error', () => undefined);
      s.on('connect', () => s.write(request(WRONG)));
      // A closed connection is opened again at once: the attacker keeps 64 per address for the whole attack.
      s.on('data', () => void attackerAnswers++);
      s.on('close', () => setTimeout(() => open(from), 20));
      sockets.push(s);
    };
    try {
      for (let a = 2; a <= 6; a++) for (let i = 0; i < 64; i++) open(`127.0.0.${a}`);
      const answers: string[] = [];
      for (let k = 0; k < 6; k++) {
        // Each ask goes in while the attack is under way: the attackers were answered again since the last.
        const before = attackerAnswers;
        await waitFor(() => attackerAnswers >= before + 64, 'answers to the attackers');
        // Answered at all is the property (ask's own bound fails a router locked out); how fast is the bench's to say.
        const { body } = await ask('127.0.0.1', right(), `81.0.2.${10 + (k % 2)}`);
        answers.push(body.trim().split(' ')[0]!);
      }
      expect(
        answers.every((a) => a === 'good' || a === 'nochg'),
        answers.join(','),
      ).toBe(true);
      expect(attackerAnswers).toBeGreaterThan(0);
    } finally {
      stop = true;
      for (const s of sockets) s.destroy();
    }
  });
});
