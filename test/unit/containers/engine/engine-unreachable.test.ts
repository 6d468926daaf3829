// An engine URL where nothing answers: over TCP the message names the address and what to check
// (src/http's wording); over a unix socket, the engine's own hint for the system's code.
import { describe, expect, it } from 'vitest';
import { engineOf } from '../../../../src/containers/engine/settings.js';
import { silentLogger } from '../../../../src/lib/log.js';
import { systemClock } from '../../../../src/lib/clock.js';
import { freePort } from '../../../helpers/programs.js';
import { tempDir } from '../../../helpers/cli.js';

describe('an engine that does not answer', () => {
  it('over TCP: nothing answers at HOST:PORT, is the engine (or the socket proxy) running, is --containers right', async () => {
    const port = await freePort();
    const { client } = engineOf({ url: `http://127.0.0.1:${port}`, clock: systemClock, logger: silentLogger });
    await expect(client.ping()).rejects.toThrow(
      `nothing answers at 127.0.0.1:${port} (ECONNREFUSED): is the engine (or the socket proxy) running there, and ` +
        'is --containers right?',
    );
  });

  it('over a unix socket that is not there: the socket hint', async () => {
    const { client } = engineOf({
      url: `unix://${tempDir()}/docker.sock`,
      clock: systemClock,
      logger: silentLogger,
    });
    await expect(client.ping()).rejects.toThrow(/: ENOENT \(no socket there: is the engine running/);
  });
});
