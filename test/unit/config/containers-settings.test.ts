// --containers, --containers-traefik and --containers-grace: read from flags and variables,
// the engine's address checked, and what the names need (the API, a zone) asked for at once.
import { describe, expect, it } from 'vitest';
import { fillBareValues } from '../../../src/cli/dash-values.js';
import { loadConfig } from '../../../src/config/load.js';

const API = { DDEDGE_API_USER: 'u', DDEDGE_API_PASSWORD: 'p-123456' };
const load = (flags: Record<string, unknown>, env: Record<string, string> = API) =>
  loadConfig({ flags: { ip: '81.0.2.15', ...flags } as never, env, purpose: 'cycle' });

describe('the containers settings', () => {
  it('reads the engine, Traefik and the grace from flags and variables', () => {
    expect(load({ host: ['h.example.com'], containers: 'unix:///run/podman/podman.sock' }).containers).toEqual({
      url: 'unix:///run/podman/podman.sock',
      setting: '--containers',
      traefik: false,
      graceMs: 600_000,
    });
    const env = {
      ...API,
      DDEDGE_CONTAINERS: 'http://127.0.0.1:2375',
      DDEDGE_CONTAINERS_TRAEFIK: 'yes',
      DDEDGE_CONTAINERS_GRACE: '30s',
    };
    expect(load({ host: ['h.example.com'] }, env).containers).toEqual({
      url: 'http://127.0.0.1:2375',
      setting: 'DDEDGE_CONTAINERS',
      traefik: true,
      graceMs: 30_000,
    });
    expect(load({ host: ['h.example.com'] }).containers).toBeUndefined();
  });

  it('leaves the engine address to the engine reader, and refuses names without the API or a zone', () => {
    // One judge of engine URLs (containers/engine/engine-url.ts), at the command's start, with its hints.
    expect(load({ host: ['h.example.com'], containers: 'ftp://x' }).containers).toMatchObject({
      url: 'ftp://x',
      setting: '--containers',
    });
    expect(() =>
      load(
        { host: ['h.example.com'], containers: 'unix:///s' },
        { DDEDGE_DYNDNS_USER: 'u', DDEDGE_DYNDNS_KEY: 'k-1234567' },
      ),
    ).toThrow(/--containers creates and deletes records through the registrar API/);
    expect(() => load({ containers: 'unix:///s' })).toThrow(/no host to update/);
    expect(load({ containers: 'unix:///s', service: 'example.com' }).hosts).toEqual([]);
  });

  it('gives --containers alone the Docker socket', () => {
    const isFlag = (n: string) => ['containers', 'log-level'].includes(n);
    const bare = { containers: 'unix:///var/run/docker.sock' };
    expect(fillBareValues(['--containers'], bare, isFlag)).toEqual(['--containers=unix:///var/run/docker.sock']);
    expect(fillBareValues(['--containers', '--log-level', 'debug'], bare, isFlag)).toEqual([
      '--containers=unix:///var/run/docker.sock',
      '--log-level',
      'debug',
    ]);
    expect(fillBareValues(['--containers', 'unix:///x.sock'], bare, isFlag)).toEqual([
      '--containers',
      'unix:///x.sock',
    ]);
  });
});
