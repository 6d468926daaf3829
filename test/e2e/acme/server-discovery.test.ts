// Without --dns-server, `present` finds the zone's authoritative servers through its NS records
// and waits for each. Here discovery asks the sandbox's name server (which answers NS
// ns1.example.com with glue 127.0.0.1) and the servers are asked on its port; in production the
// resolvers are the system's and the port is 53.
import { describe, expect, it } from 'vitest';
import { presentChallenge, type AcmeContext } from '../../../src/acme/challenge.js';
import { describeChallenge } from '../../../src/acme/challenge-name.js';
import { createDnsTxtLookup } from '../../../src/acme/dns-lookup.js';
import {
  waitUntilVisible,
  PropagationTimeoutError,
  type NameServer,
  type TxtLookup,
} from '../../../src/acme/propagation.js';
import { apiClientFrom } from '../../../src/config/api-client.js';
import { loadConfig } from '../../../src/config/load.js';
import { silentLogger } from '../../../src/lib/log.js';
import { withApi } from '../../helpers/agent-env.js';
import { tempDir } from '../../helpers/cli.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

const sandbox = useSandbox({ dnsPort: 0 });

describe('the zone authoritative servers, found through its NS records', () => {
  it('present waits for each, and reports them by name', async () => {
    const config = loadConfig({
      flags: {},
      env: { ...withApi(sandbox), DDEDGE_STATE_DIR: tempDir(), DDEDGE_PROPAGATION_TIMEOUT: '10s' },
      purpose: 'state',
    });
    const nameServer = { host: '127.0.0.1', port: sandbox.dnsPort! };
    const client = apiClientFrom(config, silentLogger);
    const context: AcmeContext = {
      config,
      logger: silentLogger,
      client,
      servers: [],
      lookup: createDnsTxtLookup({ resolvers: [nameServer], port: nameServer.port }),
    };
    try {
      const report = await presentChallenge(
        context,
        describeChallenge('_acme-challenge.example.com.', 'discovered', undefined),
        { wait: true },
      );
      expect(report).toMatchObject({ action: 'created', visibleOn: ['ns1.example.com'] });
    } finally {
      await client.close();
    }
  });
});

describe('waitUntilVisible', () => {
  const request = (lookup: TxtLookup, servers: NameServer[], timeoutMs = 2000) => ({
    name: '_acme-challenge.example.com',
    value: 'v',
    zone: 'example.com',
    servers,
    timeoutMs,
    queryTimeoutMs: 500,
    lookup,
    logger: silentLogger,
  });
  const answering = (answers: Record<string, string[] | Error>): TxtLookup => ({
    authoritativeServers: async () => [],
    txtValues: async (server) => {
      const answer = answers[server.host]!;
      if (answer instanceof Error) throw answer;
      return answer;
    },
  });

  it('counts a name server once, whichever of its addresses answers (no IPv6 route here)', async () => {
    const lookup = answering({
      '2001:db8::53': new Error('connect ENETUNREACH'),
      '192.0.2.53': ['v'],
      '192.0.2.54': ['v'],
    });
    const servers = [
      { host: '2001:db8::53', port: 53, name: 'ns1.example.net' },
      { host: '192.0.2.53', port: 53, name: 'ns1.example.net' },
      { host: '192.0.2.54', port: 53, name: 'ns2.example.net' },
    ];
    expect((await waitUntilVisible(request(lookup, servers))).servers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  it('but every name server must show it', async () => {
    const lookup = answering({ '192.0.2.53': ['v'], '192.0.2.54': ['other'] });
    const servers = [
      { host: '192.0.2.53', port: 53, name: 'ns1.example.net' },
      { host: '192.0.2.54', port: 53, name: 'ns2.example.net' },
    ];
    const error = await waitUntilVisible(request(lookup, servers, 600)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PropagationTimeoutError);
    expect((error as Error).message).toContain('ns2.example.net (192.0.2.54:53): answers 1 other value');
    expect((error as Error).message).not.toContain('ns1.example.net');
  });
});
