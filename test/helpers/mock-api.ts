// undici's MockAgent for API unit tests: one per test, closed after it, never the network.
import { MockAgent } from 'undici';
import { afterEach } from 'vitest';

export const MOCK_ORIGIN = 'https://api.test.invalid';

/** A successful envelope around responseData; `extra` overrides envelope fields. */
export const envelope = (responseData: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ success: true, errorCode: 0, errorCodeMsg: '', action: 'x', version: '1.0.26', messages: [], responseData, ...extra });

/** Returns a function that makes a fresh MockAgent for the current test. */
export function useMockAgent(): { create(): MockAgent; current(): MockAgent } {
  let agent: MockAgent | undefined;
  afterEach(async () => {
    await agent?.close();
    agent = undefined;
  });
  return {
    create() {
      agent = new MockAgent();
      agent.disableNetConnect();
      return agent;
    },
    current() {
      if (!agent) throw new Error('no MockAgent in this test');
      return agent;
    },
  };
}
