// One key's volume cannot wipe the audit journal, through the built gateway: a key sends
// updates of hundreds of DHCID changes each (no provider call, so nothing else slows it), far
// more than the journal rotates at; the line another key's update wrote before stays in the
// journal, the flooding key's lines stop at its daily budget, and the log says so. (45 updates
// of 1,000 deletes once rotated journal.jsonl twice and erased every earlier line.)
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { KEY_BYTES_PER_DAY } from '../../../src/gateway/journal/retention.js';
import { tempDir } from '../../helpers/cli.js';
import { udpExchange } from '../../helpers/dns-wire.js';
import { startGatewayProcess, writeKeysFile, type GatewayProcess } from '../../helpers/use-gateway.js';
import { aData, CLASS, outcome, rr, signed, TYPE, updateMessage } from '../../helpers/update-wire.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const TYPE_DHCID = 49;
const NAMES = 500;
/** Updates of NAMES changes each (adds, then deletes of the same): about 9 MB of journal lines, two rotations' worth. */
const ROUNDS = 80;

const sandbox = useSandbox({ per: 'file' });
let gateway: GatewayProcess | undefined;
afterAll(async () => {
  await gateway?.stop();
});

it("keeps another key's earlier line while one key floods the journal; says in the log when it leaves lines out", {
  timeout: 180_000,
}, async () => {
  const stateDir = join(tempDir('ddedge-journal-flood-'), 'state');
  const { file, keys } = writeKeysFile([
    { name: 'router', rules: ['grant "router" name home.example.com A;'] },
    { name: 'flood', rules: ['grant "flood" subdomain leases.example.com DHCID;'] },
  ]);
  gateway = await startGatewayProcess({ apiUrl: sandbox.url, zone: 'example.com', keysFile: file, stateDir });
  const send = async (key: string, shape: Parameters<typeof updateMessage>[0]) =>
    outcome(await udpExchange(gateway!.port, signed(updateMessage(shape), keys.get(key)!), 10_000)).rcode;
  expect(
    await send('router', {
      updates: [
        rr('home.example.com', TYPE.A, CLASS.ANY, 0),
        rr('home.example.com', TYPE.A, CLASS.IN, 60, aData('192.0.2.99')),
      ],
    }),
  ).toBe(0);

  const names = Array.from({ length: NAMES }, (_, i) => `l${i}.leases.example.com`);
  for (let round = 0; round < ROUNDS; round++) {
    const data = Buffer.concat([Buffer.from([0, 1, 1]), Buffer.alloc(32, round)]);
    expect(await send('flood', { id: round, updates: names.map((n) => rr(n, TYPE_DHCID, CLASS.IN, 300, data)) })).toBe(
      0,
    );
    expect(await send('flood', { id: round, updates: names.map((n) => rr(n, TYPE_DHCID, CLASS.ANY, 0)) })).toBe(0);
  }

  const folder = join(stateDir, 'gateway');
  const lines = readdirSync(folder)
    .filter((f) => f.startsWith('journal.jsonl'))
    .flatMap((f) => readFileSync(join(folder, f), 'utf8').split('\n').filter(Boolean));
  // The router's update: its intent line before the provider write, its result line after.
  const router = lines.filter((l) => l.includes('"key":"router"'));
  expect(router).toHaveLength(2);
  expect(router.filter((l) => l.includes('"outcome":"made"'))).toHaveLength(1);
  const floodBytes = lines
    .filter((l) => l.includes('"key":"flood"'))
    .reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
  expect(floodBytes).toBeLessThanOrEqual(KEY_BYTES_PER_DAY);
  expect(gateway.stderr()).toMatch(
    /journal: key flood has written .* today, its budget of .* a day; its further changes today are left out of the journal/,
  );
  // Each change is still in the log.
  expect(gateway.stderr().match(/key flood changed example\.com/g)?.length).toBe(2 * ROUNDS);
});
