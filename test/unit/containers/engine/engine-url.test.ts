// Which engine URLs are taken (src/containers/engine/engine-url.ts): a unix socket by its
// absolute path, plain http:// where no stranger is on the path; anything else refused before a
// connection, with a message that names the setting and says what to write instead.
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../../../../src/config/settings.js';
import { parseEngineUrl } from '../../../../src/containers/engine/engine-url.js';
import { listRunningContainers } from '../../../../src/containers/engine/listing.js';
import { watchContainers } from '../../../../src/containers/engine/watch.js';
import { ConfigError } from '../../../../src/lib/errors.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { capturingLogger } from './watch-helpers.js';

describe('engine URLs', () => {
  it("takes Docker's socket by default, a podman socket, and unix paths with spaces", () => {
    expect(parseEngineUrl(SETTINGS.containers.bare)).toEqual({
      base: 'http://localhost',
      socketPath: '/var/run/docker.sock',
      shown: 'unix:///var/run/docker.sock',
    });
    expect(parseEngineUrl('unix:///run/user/1000/podman/podman.sock').socketPath).toBe(
      '/run/user/1000/podman/podman.sock',
    );
    expect(parseEngineUrl('unix:///tmp/my%20dir/docker.sock').socketPath).toBe('/tmp/my dir/docker.sock');
  });

  it.each([
    ['http://127.0.0.1:2375', 'http://127.0.0.1:2375'],
    ['http://localhost:2375/', 'http://localhost:2375'],
    ['http://[::1]:2375', 'http://[::1]:2375'],
    ['http://10.0.0.5:2375', 'http://10.0.0.5:2375'],
    ['http://192.168.1.2:2375', 'http://192.168.1.2:2375'],
    ['http://[fd00::5]:2375', 'http://[fd00::5]:2375'],
    ['http://socket-proxy:2375', 'http://socket-proxy:2375'],
    ['http://host.docker.internal:2375', 'http://host.docker.internal:2375'],
  ])('takes plain http to %s (loopback, private, a socket proxy on a container network)', (url, base) => {
    expect(parseEngineUrl(url)).toEqual({ base, shown: expect.any(String) });
  });

  it.each([
    ['https://docker.example.com:2376', /TLS to an engine .* not supported/],
    ['tcp://127.0.0.1:2375', /Docker's tcp:\/\/127\.0\.0\.1:2375 is written http:\/\/127\.0\.0\.1:2375 here/],
    ['http://docker.example.com:2375', /plain http:\/\/ to docker\.example\.com:2375 .* only to loopback/],
    ['http://engine.example.net:2375', /plain http:\/\//],
    ['http://ENGINE.Example.ORG.:2375', /plain http:\/\//],
    ['npipe:////./pipe/docker_engine', /unsupported scheme "npipe:"/],
    ['/var/run/docker.sock', /is not a URL.*for a socket write unix:\/\/\/var\/run\/docker\.sock/],
    ['unix://var/run/docker.sock', /absolute path/],
    ['unix:///', /absolute path/],
    ['unix:///run/docker.sock?x=1', /absolute path/],
    ['http://127.0.0.1:2375/?a=b', /query or fragment/],
  ])('refuses %s with a clear error naming the setting', (url, message) => {
    const error = (() => {
      try {
        parseEngineUrl(url, 'DDEDGE_CONTAINERS');
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/^DDEDGE_CONTAINERS: /);
    expect((error as Error).message).toMatch(message);
  });

  it('never shows the password of a proxy URL in an error', () => {
    expect(() => parseEngineUrl('http://user:s3cretpw@docker.example.com:2375')).toThrow(/docker\.example\.com/);
    expect(() => parseEngineUrl('http://user:s3cretpw@docker.example.com:2375')).not.toThrow(/s3cretpw/);
  });

  it('refuses a bad URL before any connection: watchContainers throws, listRunningContainers rejects', async () => {
    const settings = { url: 'https://docker.example.com', clock: new FakeClock(), logger: capturingLogger([]) };
    expect(() => watchContainers(settings, () => {})).toThrow(ConfigError);
    await expect(listRunningContainers(settings)).rejects.toThrow(/^--containers: unsupported scheme "https:"/);
  });
});
