// The gateway's provider calls go over Node's own keep-alive pool (src/http/node-pool-transport.ts),
// as the zone commands' many calls do: a gateway never loads undici, whose chunk and WebAssembly
// parser it paid for at every start. What it loaded is read from Node's own list at its exit, through
// a preload (NODE_OPTIONS): the modules undici needs (node:http2, node:worker_threads) are not in it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keygenText } from '../../../src/gateway/keys/keygen.js';
import { tempDir } from '../../helpers/cli.js';
import { startGatewayProcess } from '../../helpers/use-gateway.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ port: 0, per: 'file' });

describe('the gateway calls the provider', () => {
  it('over Node’s own HTTP client: it reads the zone, answers, stops, and never loaded undici', async () => {
    const dir = tempDir('ddedge-gw-client-');
    const keysFile = join(dir, 'keys');
    writeFileSync(keysFile, `${keygenText('k', 'hmac-sha256')}grant "k" wildcard *.example.com TXT;\n`, {
      mode: 0o600,
    });
    const preload = join(dir, 'builtins.cjs');
    writeFileSync(
      preload,
      "process.on('exit', () => process.getBuiltinModule('node:fs').writeSync(2, '\\nbuiltins ' + " +
        "JSON.stringify(process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13))) + '\\n'));\n",
    );
    const gateway = await startGatewayProcess({
      apiUrl: sandbox.url,
      zone: 'example.com',
      keysFile,
      stateDir: join(dir, 'state'),
      env: { NODE_OPTIONS: `--require ${preload}` },
    });
    expect(await gateway.stop()).toBe(0);
    const builtins = JSON.parse(/\nbuiltins (.*)\n/.exec(gateway.stderr())![1]!) as string[];
    // It made its calls (the zone was read) with Node's http module...
    expect(builtins).toContain('http');
    // ...and nothing of what undici needs was loaded.
    expect(builtins).not.toContain('http2');
    expect(builtins).not.toContain('worker_threads');
  });
});
