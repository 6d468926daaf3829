// Every one of the 99 API operations called from the command line against a stub that answers
// each with its own path, through `run`: main() in this process in the suite
// (api-command.test.ts), the built file in the stress run (99 starts of it took two minutes on
// a loaded 2-core machine).
import { expect } from 'vitest';
import { operations } from '../../src/api/endpoints/index.js';
import { baseEnv, type RunResult } from './cli.js';
import { sampleParams } from './sample-params.js';
import { startServer } from './servers.js';

export type Runner = (args: string[], env: Record<string, string>) => Promise<RunResult>;

export async function callEveryOperation(run: Runner): Promise<void> {
  const all = operations();
  // The shape the answer readers require: a list for list operations, the caller's address for hello.
  const lists = Object.fromEntries(all.filter((o) => o.endpoint.listKey).map((o) => [o.endpoint.listKey, []]));
  const stub = await startServer((req, res) =>
    res.end(
      JSON.stringify({
        success: true,
        errorCode: 0,
        errorCodeMsg: '',
        action: 'x',
        version: '1.0.26',
        messages: [],
        responseData: { path: req.url, ip: '81.0.2.15', ...lists },
      }),
    ),
  );
  try {
    const env = () =>
      baseEnv({ DDEDGE_API_URL: stub.url, DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'canary-cli-password' });
    const argsFor = (params: Record<string, unknown>) =>
      Object.entries(params).flatMap(([k, v]) => [`--${k}`, String(v)]);
    const results: [string, number | null, string][] = [];
    for (let i = 0; i < all.length; i += 6) {
      const batch = all.slice(i, i + 6).map(async (o) => {
        const name = `${o.module}/${o.endpoint.action}`;
        const result = await run(
          ['api', o.module, o.endpoint.action, ...argsFor(sampleParams(name, o.endpoint))],
          env(),
        );
        results.push([name, result.code, result.stdout + result.stderr]);
      });
      await Promise.all(batch);
    }
    for (const [name, code, output] of results) {
      expect(code, `${name}: ${output}`).toBe(0);
      expect(JSON.parse(output).path, name).toBe(`/${name}/`);
    }
    expect(results).toHaveLength(99);
  } finally {
    await stub.close();
  }
}
