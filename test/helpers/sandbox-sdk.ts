// The SDK signed in to a sandbox's demo account, for tests that set up or read its zones.
import type { Sandbox } from '../../src/sandbox/server.js';
import { Registrar } from '../../src/sdk/index.js';

export const sandboxRegistrar = (sandbox: Sandbox): Registrar =>
  new Registrar({ url: sandbox.url, user: sandbox.model.account.apiUser, password: sandbox.model.account.apiPassword });
