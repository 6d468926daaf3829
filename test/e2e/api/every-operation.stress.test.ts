// Every one of the 99 API operations through the built file (npm run test:stress); the suite
// calls them through main() in its process (api-command.test.ts).
import { describe, it } from 'vitest';
import { callEveryOperation } from '../../helpers/api-operations.js';
import { runDist } from '../../helpers/cli.js';

describe('ddedge api, the built file', () => {
  it('calls every one of the 99 operations from the command line', { timeout: 600_000 }, async () => {
    await callEveryOperation(runDist);
  });
});
