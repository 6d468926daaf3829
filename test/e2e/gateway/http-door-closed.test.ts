// A gateway started without its HTTP door (no --http-listen) whose keys are shaped for it (a
// router's: only A/AAAA) says so once in its start log, naming the keys, the protocols and the
// flag that opens the door, before a router meets "connection refused"; never a secret. With the
// door open, nothing of the kind is said.
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { freePort } from '../../helpers/programs.js';
import { startGatewayProcess, writeKeysFile } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ port: 0, per: 'file' });

/** A gateway of the sandbox's example.com with the keys file `file`. */
const started = (file: string, args: string[] = []) =>
  startGatewayProcess({ apiUrl: sandbox.url, zone: 'example.com', keysFile: file, stateDir: tempDir(), args });

const KEYS = [
  { name: 'router', rules: ['grant "router" name home.example.com A AAAA;'] },
  { name: 'acme', rules: ['grant "acme" wildcard *.example.com TXT;'] },
  { name: 'admin', rules: ['grant "admin" zonesub;'] },
];

describe('the HTTP door closed', () => {
  it("one warning at start names the router's and the ACME keys, their protocols and --http-listen", async () => {
    const { file, secrets } = writeKeysFile(KEYS);
    const gateway = await started(file);
    try {
      const lines = gateway.stderr().split('\n');
      const said = lines.filter((l) => l.includes('HTTP door is closed'));
      expect(said).toEqual([
        'warn: gateway: the HTTP door is closed (no --http-listen): dyndns2 clients (routers, NAS boxes) with key ' +
          '"router", and httpreq and acme-dns clients with key "acme", get "connection refused"; --http-listen ' +
          'ADDR:PORT (DDEDGE_GATEWAY_HTTP_DOOR_LISTEN; DDEDGE_GATEWAY_HTTP_LISTEN is --listen, the status page) opens ' +
          'it (RFC 2136 updates on the DNS door work as they are)',
      ]);
      for (const secret of secrets.values()) expect(gateway.stderr()).not.toContain(secret);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it("a SIGHUP reload that brings a router's key says so again, naming it", async () => {
    const { file } = writeKeysFile([KEYS[2]!]);
    const gateway = await started(file);
    try {
      expect(gateway.stderr()).not.toContain('HTTP door');
      writeKeysFile(KEYS, file);
      gateway.child.kill('SIGHUP');
      await gateway.logged(/keys file reloaded; 3 keys\n/);
      await gateway.logged(/warn: gateway: the HTTP door is closed .* with key "router", .*\n/);
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });

  it('with --http-listen, nothing is said of it', async () => {
    const { file } = writeKeysFile(KEYS);
    const gateway = await started(file, ['--http-listen', `127.0.0.1:${await freePort()}`]);
    try {
      expect(gateway.stderr()).not.toContain('HTTP door');
    } finally {
      expect(await gateway.stop()).toBe(0);
    }
  });
});
