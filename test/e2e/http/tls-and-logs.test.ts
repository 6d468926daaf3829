import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { agentEnv } from '../../helpers/agent-env.js';
import { runDist } from '../../helpers/cli.js';
import { startServer, tlsFiles } from '../../helpers/servers.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

describe('HTTPS', () => {
  const { cert, key } = tlsFiles();
  const sb = useSandbox({ tls: { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') } });

  it('verifies the provider certificate: trusted through NODE_EXTRA_CA_CERTS, refused without it', async () => {
    expect(sb.url).toMatch(/^https:/);
    const env = agentEnv(sb);
    const refused = await runDist(['update', '--ip', '81.0.2.15'], env);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/TLS failure.*NODE_EXTRA_CA_CERTS/);
    const trusted = await runDist(['update', '--ip', '81.0.2.15'], { ...env, NODE_EXTRA_CA_CERTS: tlsFiles().ca });
    expect(trusted).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.15 updated\n' });
  });

  it('learns the address from two HTTPS echo sources', async () => {
    const a = await startServer('81.0.2.50\n', { tls: true });
    const b = await startServer('81.0.2.50', { tls: true });
    const env = { ...agentEnv(sb), NODE_EXTRA_CA_CERTS: tlsFiles().ca, DDEDGE_IP_SOURCES: `url:${a.url},url:${b.url}` };
    const result = await runDist(['update'], env);
    await a.close();
    await b.close();
    expect(result).toMatchObject({ code: 0, stdout: 'home.example.com A 81.0.2.50 updated\n' });
  });

  it('names the host in the TLS handshake (SNI), and an address literal not at all', async () => {
    const seen: Record<string, unknown> = {};
    const named = await startServer(
      (req, res) => {
        seen.named = (req.socket as { servername?: unknown }).servername;
        res.end('81.0.2.51');
      },
      { tls: true },
    );
    const literal = await startServer(
      (req, res) => {
        seen.literal = (req.socket as { servername?: unknown }).servername;
        res.end('81.0.2.51\n');
      },
      { tls: true },
    );
    const sources = [
      '--ip-source',
      `url:${named.url.replace('127.0.0.1', 'localhost')}`,
      '--ip-source',
      `url:${literal.url}`,
    ];
    const result = await runDist(['ip', ...sources], { ...agentEnv(sb), NODE_EXTRA_CA_CERTS: tlsFiles().ca });
    await named.close();
    await literal.close();
    expect(result).toMatchObject({ code: 0, stdout: '81.0.2.51\n' });
    expect(seen).toEqual({ named: 'localhost', literal: false });
  });
});

describe('logs', () => {
  const sandbox = useSandbox();

  it('carry syslog priorities under systemd (JOURNAL_STREAM) so journald keeps levels', async () => {
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--host', 'home.example.com', '--host', 'nope.example.com'],
      agentEnv(sandbox, { JOURNAL_STREAM: '8:12345' }),
    );
    const lines = result.stderr.trim().split('\n');
    expect(lines.some((l) => l.startsWith('<6>home.example.com A set to 81.0.2.15'))).toBe(true);
    expect(lines.some((l) => l.startsWith('<3>nope.example.com A:'))).toBe(true);
  });

  it('are one JSON object per line with --log-format json', async () => {
    const result = await runDist(
      ['update', '--ip', '81.0.2.15', '--log-format', 'json', '--log-level', 'debug'],
      agentEnv(sandbox),
    );
    const entries = result.stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(entries.length).toBeGreaterThan(1);
    for (const e of entries)
      expect(e).toMatchObject({
        time: expect.any(String),
        level: expect.stringMatching(/^(debug|info|warn|error)$/),
        msg: expect.any(String),
      });
  });

  it('--log-level error keeps stderr quiet on success', async () => {
    const result = await runDist(['update', '--ip', '81.0.2.15', '--log-level', 'error'], agentEnv(sandbox));
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });
});
