// An address source whose URL carries credentials (`url:http://u:SECRET@host/x`, a token as
// the user name, a key in the query): the source is named in `ip --json`, in debug lines, in
// warnings, in the daemon's logs and /status, in errors. None of them may show the secret.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { baseEnv, runDist, runMain, startDist, tempDir, waitForOutput } from '../../helpers/cli.js';
import { startServer, type TestServer } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const SECRET = 'CANARY-Pw7q2x';
const TOKEN = 'CANARY-tok3n9';

let echo: TestServer;
const sandbox = useSandbox();
beforeEach(async () => {
  echo = await startServer('81.0.2.15\n');
});
afterEach(async () => {
  await echo.close();
});

/** The echo server's URL with credentials in the user-info part (and, for one, in the query). */
const withPassword = (path = 'x') => `url:${echo.url.replace('http://', `http://u:${SECRET}@`)}${path}`;
const withToken = () => `url:${echo.url.replace('http://', `http://${TOKEN}@`)}y`;
const withQueryKey = () => `url:${echo.url}z?key=${SECRET}`;

const shows = (text: string) => [SECRET, TOKEN, encodeURIComponent(SECRET), '@and@'].filter((s) => text.includes(s));

describe('credentials in an url: source', () => {
  it('ip --json and its debug lines name the source without them', async () => {
    for (const source of [withPassword(), withToken(), withQueryKey()]) {
      const result = await runDist(
        ['ip', '--json', '--ip-source', source, '--log-level', 'debug'],
        baseEnv({ DDEDGE_STATE_DIR: tempDir() }),
      );
      expect(result.code).toBe(0);
      const [found] = JSON.parse(result.stdout).addresses;
      expect(found.sources).toEqual([expect.objectContaining({ address: '81.0.2.15' })]);
      expect(result.stdout).toContain('127.0.0.1');
      expect(shows(result.stdout + result.stderr)).toEqual([]);
    }
    // The server was asked with the credentials: they are masked when shown, not dropped.
    expect(echo.hits).toBe(3);
  });

  it('update at debug level with a source that fails; ip with one that answers something private', async () => {
    const failing = await startServer((_req, res) => res.writeHead(503).end('down'));
    const private10 = await startServer('10.1.2.3');
    try {
      const sources = [withPassword(), `url:${failing.url.replace('http://', `http://u:${SECRET}@`)}f`];
      const env = agentEnv(sandbox, {
        DDEDGE_IP_SOURCES: sources.join(','),
        DDEDGE_IP_QUORUM: '1',
        DDEDGE_LOG_LEVEL: 'debug',
      });
      const result = await runMain(['update', '--json'], env);
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('source answered');
      expect(shows(result.stdout + result.stderr)).toEqual([]);
      const refused = await runMain(
        ['ip', '--log-level', 'debug', '--ip-source', `url:${private10.url.replace('http://', `http://${TOKEN}@`)}p`],
        env,
      );
      expect(refused.code).toBe(6);
      expect(refused.stderr).toMatch(/refused 10\.1\.2\.3 from url:http:\/\/\*\*\*@127\.0\.0\.1/);
      expect(shows(refused.stdout + refused.stderr)).toEqual([]);
    } finally {
      await failing.close();
      await private10.close();
    }
  });

  it('every source failing: the error that names each one', async () => {
    const failing = await startServer((_req, res) => res.writeHead(500).end('no'));
    try {
      const source = `url:${failing.url.replace('http://', `http://u:${SECRET}@`)}f`;
      const env = agentEnv(sandbox, { DDEDGE_IP_SOURCES: source });
      for (const args of [['update'], ['update', '--json'], ['ip'], ['ip', '--json']]) {
        const result = await runMain(args, env);
        expect(result.code).toBe(6);
        expect(result.stdout + result.stderr).toContain('u:***@127.0.0.1');
        expect(shows(result.stdout + result.stderr)).toEqual([]);
      }
    } finally {
      await failing.close();
    }
  });

  it('the duplicate-source error (one server named twice for a quorum of 2)', async () => {
    const env = agentEnv(sandbox, {
      DDEDGE_IP_SOURCES: [withPassword('a'), withPassword('b')].join(','),
      DDEDGE_IP_QUORUM: '2',
    });
    const result = await runMain(['update'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ask the same server');
    expect(shows(result.stderr)).toEqual([]);
  });

  it('a source form mistyped around such a URL is quoted without the password', async () => {
    for (const text of [
      `http://u:${SECRET}@127.0.0.1:1/x`,
      `url;http://u:${SECRET}@127.0.0.1:1/x`,
      `url:http://u:${SECRET}@example.com/x`,
      `uri:http://u:${SECRET}@and@127.0.0.1:1/x`,
    ]) {
      const result = await runMain(['update'], agentEnv(sandbox, { DDEDGE_IP_SOURCES: text }));
      expect(result.code).toBe(2);
      expect(shows(result.stderr)).toEqual([]);
    }
  });

  it('the daemon: its debug log, its /status and what SIGTERM prints', async () => {
    const env = agentEnv(sandbox, {
      DDEDGE_IP_SOURCES: [withPassword(), withToken()].join(','),
      DDEDGE_IP_QUORUM: '1',
      DDEDGE_LOG_LEVEL: 'debug',
      DDEDGE_INTERVAL: '1h',
    });
    const daemon = startDist(['daemon', '--listen', '127.0.0.1:0'], env);
    const log = await waitForOutput(daemon, 'stderr', (t) => /at (http:\S+)\/\n/.test(t) && / set to /.test(t));
    const base = /at (http:\S+)\/\n/.exec(log)![1]!;
    const status = await (await fetch(`${base}/status`)).text();
    daemon.kill('SIGTERM');
    const result = await daemon.result;
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('source answered');
    expect(shows(status + result.stdout + result.stderr)).toEqual([]);
  });
});
