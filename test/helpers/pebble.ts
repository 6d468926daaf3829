// Pebble, Let's Encrypt's test ACME server (Debian package `pebble`), on random loopback ports,
// validating DNS-01 against a given name server. Its HTTPS listener uses the test CA's
// certificate for 127.0.0.1 (Debian's package ships no test certificates); clients trust
// tlsFiles().ca. It stops by itself after `lifetimeMs` if a test forgets it.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './programs.js';
import { tlsFiles } from './servers.js';
import { tempDir } from './cli.js';

export interface Pebble {
  directoryUrl: string;
  /** The CA that signed Pebble's HTTPS certificate (not the CA that issues certificates). */
  caFile: string;
  /** What Pebble printed: its validation log. */
  output(): string;
  /** The root that signs the certificates Pebble issues (from its management interface). */
  managementUrl: string;
  close(): Promise<void>;
}

export async function startPebble(dnsServer: string, lifetimeMs = 120_000): Promise<Pebble> {
  const dir = tempDir('ddedge-pebble-');
  const [acmePort, managementPort, httpPort, tlsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const tls = tlsFiles();
  const config = join(dir, 'pebble-config.json');
  writeFileSync(
    config,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${acmePort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: tls.cert,
        privateKey: tls.key,
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child = spawn('pebble', ['-config', config, '-dnsserver', dnsServer], {
    // No artificial validation delays, no rejected nonces: the proof is about DNS, not retries.
    env: { PATH: process.env.PATH ?? '', PEBBLE_VA_NOSLEEP: '1', PEBBLE_WFE_NONCEREJECT: '0', PEBBLE_AUTHZREUSE: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const guard = setTimeout(() => child.kill('SIGKILL'), lifetimeMs);
  guard.unref();
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pebble did not start: ${output}`)), 15_000);
    const onData = (d: Buffer) => {
      output += d;
      if (output.includes(`Listening on: 127.0.0.1:${acmePort}`)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pebble exited (${code}): ${output}`));
    });
  });
  return {
    directoryUrl: `https://127.0.0.1:${acmePort}/dir`,
    caFile: tls.ca,
    managementUrl: `https://127.0.0.1:${managementPort}`,
    output: () => output,
    close: async () => {
      clearTimeout(guard);
      child.kill('SIGTERM');
      await exited;
    },
  };
}
