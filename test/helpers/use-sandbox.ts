// The sandbox (the provider's emulator, in this process) as a vitest fixture: started before each
// test (or once for the file) and closed after, so a test file says which sandbox it needs in
// one line instead of a `let`, a beforeEach and an afterEach of its own.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { agentEnv, withApi } from './agent-env.js';
import { baseEnv } from './cli.js';

export interface SandboxHandle extends Sandbox {
  /** The demo account's credentials (the API's and dynamic DNS's). */
  readonly credentials: { apiUser: string; apiPassword: string; dyndnsUser: string; dyndnsKey: string };
  /** A clean environment for the built CLI with the registrar API set to this sandbox (DDEDGE_API_*), and `extra`. */
  apiEnv(extra?: Record<string, string | undefined>): Record<string, string>;
  /** The agent's environment against this sandbox: dynamic DNS, home.example.com, a fresh state directory (agent-env.ts). */
  agentEnv(extra?: Record<string, string | undefined>): Record<string, string>;
}

export interface UseSandboxOptions extends SandboxOptions {
  /** `test` (the default): a fresh sandbox for every test; `file`: one for the whole file (or describe block). */
  per?: 'test' | 'file';
}

/**
 * A sandbox for each test (or for the file, `per: 'file'`). The handle reads the sandbox of the
 * moment, so it can be kept in a `const` at the top of a file and passed wherever a Sandbox goes.
 */
export function useSandbox(options: UseSandboxOptions = {}): SandboxHandle {
  const { per = 'test', ...sandboxOptions } = options;
  let current: Sandbox | undefined;
  const live = (): Sandbox => {
    if (!current) throw new Error('useSandbox: the sandbox runs only inside the tests of the file that asked for it');
    return current;
  };
  const [before, after] = per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach];
  before(async () => {
    current = await startSandbox(sandboxOptions);
  });
  after(async () => {
    const closing = current;
    current = undefined;
    await closing?.close();
  });
  const extras = {
    get credentials() {
      const { apiUser, apiPassword, dyndnsUser, dyndnsKey } = live().model.account;
      return { apiUser, apiPassword, dyndnsUser, dyndnsKey };
    },
    apiEnv: (extra: Record<string, string | undefined> = {}) => baseEnv({ ...withApi(live()), ...extra }),
    agentEnv: (extra: Record<string, string | undefined> = {}) => agentEnv(live(), extra),
  };
  return new Proxy(extras, {
    get(target, property) {
      if (property in target) return Reflect.get(target, property);
      const sandbox = live();
      const value = Reflect.get(sandbox, property);
      return typeof value === 'function' ? value.bind(sandbox) : value;
    },
    set: (_target, property, value) => Reflect.set(live(), property, value),
    has: (target, property) => property in target || property in live(),
  }) as SandboxHandle;
}
