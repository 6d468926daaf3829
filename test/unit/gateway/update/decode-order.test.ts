// An UPDATE is judged on what costs nothing to read before any of its records is decoded: the
// header's counts, the record limit and the signer (a known key, a valid MAC). An unsigned or
// wrongly signed message of thousands of records is refused without one call of the record
// decoder (each decode of a 63 KB message of 5,300 records cost tens of milliseconds, unsigned).
// The decoder is spied on where every reader of an update's records gets it (dns/wire/message.ts).
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { keygenText } from '../../../../src/gateway/keys/keygen.js';
import type { TsigKey } from '../../../../src/dns/wire/tsig.js';
import type { DnsListener } from '../../../../src/dns/server/listener.js';
import { parseKeysFile } from '../../../../src/gateway/keys/keys-file.js';
import { DhcidStore } from '../../../../src/gateway/dhcid/store.js';
import { startGatewayServer } from '../../../../src/gateway/dns-door.js';
import { ZoneViews } from '../../../../src/gateway/dns/zone-views.js';
import { UpdateQueue } from '../../../../src/gateway/update/update-queue.js';
import { silentLogger } from '../../../../src/lib/log.js';
import type { ZoneProvider } from '../../../../src/zone/provider/provider-zone.js';
import { tempDir } from '../../../helpers/cli.js';
import { udpExchange } from '../../../helpers/dns-wire.js';
import { aData, CLASS, outcome, rr, signed, TYPE, updateMessage } from '../../../helpers/update-wire.js';

const decodes = vi.hoisted(() => ({ count: 0, names: 0 }));
// Each owner name read into text costs as much as a small record's data: the walk to the TSIG skips them.
vi.mock('../../../../src/dns/wire/names.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../../src/dns/wire/names.js')>();
  return {
    ...original,
    readName: (...args: Parameters<typeof original.readName>) => {
      decodes.names++;
      return original.readName(...args);
    },
  };
});
vi.mock('../../../../src/dns/wire/message.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../../src/dns/wire/message.js')>();
  return {
    ...original,
    readRecordHead: (...args: Parameters<typeof original.readRecordHead>) => {
      decodes.count++;
      return original.readRecordHead(...args);
    },
    decodeData: (...args: Parameters<typeof original.decodeData>) => {
      decodes.count++;
      return original.decodeData(...args);
    },
  };
});

const NOTAUTH = 9;
const REFUSED = 5;
const keyText = keygenText('kea');
const known: TsigKey = {
  name: 'kea',
  algorithm: 'hmac-sha256',
  secret: Buffer.from(/secret "([^"]+)"/.exec(keyText)![1]!, 'base64'),
};
const stranger: TsigKey = { name: 'stranger', algorithm: 'hmac-sha256', secret: Buffer.alloc(32, 7) };
const forged: TsigKey = { ...known, secret: Buffer.alloc(32, 9) };

/** 3,900 A adds at the apex, each owner a pointer to the zone's name: about 63 KB, as the flood that was measured. */
const huge = (): Buffer => updateMessage({ updates: Array.from({ length: 3_900 }, (_, i) => compressedAdd(i)) });
function compressedAdd(i: number): Buffer {
  const record = Buffer.concat([
    Buffer.from([0xc0, 12]),
    rr('.', TYPE.A, CLASS.IN, 60, aData(`192.0.${i >> 8}.${i & 255}`)).subarray(1),
  ]);
  return record;
}

let server: DnsListener;
beforeAll(async () => {
  const provider = { list: async () => [] } as unknown as ZoneProvider;
  const views = new ZoneViews(['example.com'], () => provider, 'gw.example.net');
  await views.refresh('example.com');
  const keys = parseKeysFile(`${keyText}grant "kea" zonesub A;\n`, 'keys');
  const stateDir = tempDir('ddedge-decode-');
  const deps = {
    views,
    providerOf: () => provider,
    keys: () => keys,
    stateDir: join(stateDir, 'state'),
    hosts: [],
    logger: silentLogger,
    dhcid: DhcidStore.open(join(stateDir, 'state')),
  };
  server = await startGatewayServer({ host: '127.0.0.1', port: 0, ...deps, updates: new UpdateQueue(deps) });
});
afterAll(() => server?.close());
beforeEach(() => {
  decodes.count = 0;
  decodes.names = 0;
});
/** The names a refusal may read: a few (the zone's, read by each layer, the TSIG's owner and algorithm), not one per record. */
const FEW_NAMES = 16;

describe('an UPDATE of thousands of records is refused before any record is decoded', () => {
  it('unsigned: NOTAUTH, no record decoded', async () => {
    const packet = huge();
    expect(packet.length).toBeGreaterThan(60_000);
    expect(outcome(await udpExchange(server.port, packet)).rcode).toBe(NOTAUTH);
    expect(decodes.count).toBe(0);
    expect(decodes.names).toBeLessThan(FEW_NAMES);
  });

  it('signed with a key the gateway does not know: NOTAUTH (BADKEY), no record decoded', async () => {
    const o = outcome(await udpExchange(server.port, signed(huge(), stranger)));
    expect([o.rcode, o.tsigError]).toEqual([NOTAUTH, 17]);
    expect(decodes.count).toBe(0);
    expect(decodes.names).toBeLessThan(FEW_NAMES);
  });

  it('signed with a known key name but the wrong secret: NOTAUTH (BADSIG), no record decoded', async () => {
    const o = outcome(await udpExchange(server.port, signed(huge(), forged)));
    expect([o.rcode, o.tsigError]).toEqual([NOTAUTH, 16]);
    expect(decodes.count).toBe(0);
    expect(decodes.names).toBeLessThan(FEW_NAMES);
  });

  it('signed by a known key but over the record limit: REFUSED (signed), no record decoded', async () => {
    const o = outcome(await udpExchange(server.port, signed(huge(), known)));
    expect([o.rcode, o.tsigError]).toEqual([REFUSED, 0]);
    expect(decodes.count).toBe(0);
    expect(decodes.names).toBeLessThan(FEW_NAMES);
  });

  it('the spy sees decodes: a small signed update is read (and refused for its grant-less type, after reading)', async () => {
    const o = outcome(
      await udpExchange(
        server.port,
        signed(
          updateMessage({ updates: [rr('one.example.com', TYPE.TXT, CLASS.IN, 60, Buffer.from([1, 65]))] }),
          known,
        ),
      ),
    );
    expect(o.rcode).toBe(REFUSED);
    expect(decodes.count).toBeGreaterThan(0);
  });
});
