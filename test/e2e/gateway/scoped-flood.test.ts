// One narrowly scoped key must not freeze the gateway. A key granted only
// `wildcard *.example.com TXT` sent 40 UDP updates of 1,000 TXT adds each: each record filtered
// the whole working zone, no query and no /healthz was answered for 52 s. Now each update costs
// what it carries, the gateway answers what arrives between updates, a key's queued records and
// a batch's are bounded, and an update too big to be made is refused with a reason (and
// logged). The proof is what gets answered, not how fast: the machine is shared.
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { MAX_KEY_RECORDS, MAX_UPDATE_RECORDS } from '../../../src/gateway/update/limits.js';
import { queryPacket, readAnswer, udpExchange } from '../../helpers/dns-wire.js';
import { CLASS, outcome, rr, signed, TYPE, txtData, updateMessage } from '../../helpers/update-wire.js';
import { useGateway, waitFor } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

/** How long a query (three tries) or probe may wait for its answer before it counts as not answered (the freeze was 52 s). */
const ANSWER_BOUND_MS = 5_000;
const FLOOD_UPDATES = 40;

const sandbox = useSandbox({ per: 'file' });
const gateway = useGateway(() => ({
  apiUrl: sandbox.url,
  primaryName: null,
  args: ['--listen', '127.0.0.1:0', '--refresh', '1h'],
  keys: [{ name: 'scoped', rules: ['grant "scoped" wildcard *.example.com TXT;'] }],
}));
const key = () => gateway.keys.get('scoped')!;

/**
 * A query sent as a resolver sends it: again when no answer came within a while (a datagram the
 * kernel dropped from a socket full of 50 KB updates is lost, a frozen gateway answers none).
 */
async function askAsAResolverWould(i: number): Promise<boolean> {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return (
        readAnswer(
          await udpExchange(
            gateway.port,
            queryPacket({ id: (7000 + i * 3 + attempt) & 0xffff, name: 'home.example.com', type: 1 }),
            ANSWER_BOUND_MS / 3,
          ),
        ).answers.length === 1
      );
    } catch {
      // not answered yet: ask again
    }
  }
  return false;
}

/** One UPDATE of example.com with `count` TXT adds below it, signed with the scoped key, with EDNS (for the EDE). */
function floodUpdate(id: number, count: number): Buffer {
  const updates = Array.from({ length: count }, (_, j) =>
    rr(`f${id}-${j % 50}.example.com`, TYPE.TXT, CLASS.IN, 300, txtData(`flood ${id} ${j}`)),
  );
  return signed(updateMessage({ id, updates, edns: 1232 }), key());
}

describe('a key granted a wildcard TXT floods the gateway with big updates', () => {
  it("an update over the per-update cap is refused before anything is read, and logged (before the flood fills the refusal log's minute)", async () => {
    const calls = [...sandbox.calls.values()].reduce((n, c) => n + c, 0);
    const answer = outcome(await udpExchange(gateway.port, floodUpdate(4242, MAX_UPDATE_RECORDS + 1), ANSWER_BOUND_MS));
    expect(answer).toMatchObject({
      rcode: 5,
      edeText: `an update may carry at most ${MAX_UPDATE_RECORDS} records (this one has ${MAX_UPDATE_RECORDS + 1}); split it`,
    });
    expect([...sandbox.calls.values()].reduce((n, c) => n + c, 0)).toBe(calls);
    await gateway.logged(/key scoped, from 127\.0\.0\.1: REFUSED: an update may carry at most 1000 records/);
  });

  it('queries and /healthz sent during the flood are all answered; every flood update is answered, the excess refused with a reason', async () => {
    const socket = dgram.createSocket('udp4');
    // The datagrams are big: room for all of them while the gateway reads them.
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
    socket.setRecvBufferSize(8 * 1024 * 1024);
    const answers = new Map<number, ReturnType<typeof outcome>>();
    socket.on('message', (m) => answers.set(m.readUInt16BE(0), outcome(m)));
    const floodIds = Array.from({ length: FLOOD_UPDATES }, (_, i) => 1000 + i);
    const packets = floodIds.map((id) => floodUpdate(id, MAX_UPDATE_RECORDS));

    let probing = true;
    const probes: { kind: string; answered: boolean }[] = [];
    const probe = async () => {
      for (let i = 0; probing; i++) {
        const query = askAsAResolverWould(i);
        const health = fetch(`${gateway.endpoint}/healthz`, { signal: AbortSignal.timeout(ANSWER_BOUND_MS) }).then(
          (r) => r.status === 200,
          () => false,
        );
        const [q, h] = await Promise.all([query, health]);
        probes.push({ kind: 'query', answered: q }, { kind: 'healthz', answered: h });
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const probing$ = probe();
    // A round of probes is answered before the flood, and another after every flood update is answered; then the probes stop.
    await waitFor(() => probes.length >= 2, 'a round of probes before the flood');
    for (const packet of packets) socket.send(packet, gateway.port, '127.0.0.1');
    await waitFor(() => floodIds.every((id) => answers.has(id)), 'answers to every flood update');
    const during = probes.length;
    await waitFor(() => probes.length >= during + 4, 'probes after the flood');
    probing = false;
    await probing$;
    socket.close();

    expect(floodIds.filter((id) => !answers.has(id))).toEqual([]);
    expect(probes.length).toBeGreaterThanOrEqual(4);
    expect(probes.filter((p) => !p.answered)).toEqual([]);
    // A key may have at most MAX_KEY_RECORDS records waiting: most of the flood is refused at once, saying why.
    const refused = floodIds
      .map((id) => answers.get(id)!)
      .filter((a) => a.rcode === 5 && /waiting to be made/.test(a.edeText ?? ''));
    expect(refused.length).toBeGreaterThanOrEqual(FLOOD_UPDATES - Math.ceil(MAX_KEY_RECORDS / MAX_UPDATE_RECORDS) * 3);
    expect(refused[0]!.edeText).toContain(`at most ${MAX_KEY_RECORDS} at once`);
    // Those let through could not be made within the default budget (600 calls an hour): SERVFAIL, saying why.
    for (const a of floodIds.map((id) => answers.get(id)!).filter((a) => a.rcode !== 5))
      expect({ rcode: a.rcode, ede: a.edeText }).toMatchObject({ rcode: 2, ede: expect.stringMatching(/budget/) });
    await gateway.logged(
      /update zone example\.com, key scoped, from 127\.0\.0\.1: REFUSED: the key scoped has updates of \d+ records waiting to be made/,
    );
    // Nothing of the flood reached the provider.
    expect(
      sandbox.model.services.find((s) => s.name === 'example.com')!.dns.filter((e) => e.name.startsWith('f1')),
    ).toEqual([]);
  }, 180_000);

  it('the key is free again once its updates are answered: a small update is made', async () => {
    const answer = outcome(
      await udpExchange(
        gateway.port,
        signed(
          updateMessage({
            id: 5151,
            updates: [rr('after.example.com', TYPE.TXT, CLASS.IN, 300, txtData('after the flood'))],
            edns: 1232,
          }),
          key(),
        ),
        30_000,
      ),
    );
    expect(answer.rcode).toBe(0);
    expect(
      sandbox.model.services
        .find((s) => s.name === 'example.com')!
        .dns.filter((e) => e.name === 'after.example.com')
        .map((e) => e.value),
    ).toEqual(['after the flood']);
  });
});
