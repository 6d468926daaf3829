// Setup file of the files that share a worker (vitest.config.ts, project "shared"): a worker
// runs file after file without a process start each, and each file still imports the project's
// modules afresh, as in a process of its own. What one file left in a module (secrets
// registered to mask, locks held here, a warning given once) is not seen by the next.
import { vi } from 'vitest';

vi.resetModules();
