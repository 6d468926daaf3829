// init's questions, answered by a script: hosts, then each interface's credentials (either may
// be skipped, not both), with what flags and variables gave offered as the answer.
import { describe, expect, it } from 'vitest';
import { interview } from '../../../src/init/interview.js';
import type { Terminal } from '../../../src/init/terminal.js';

/** A terminal that answers from a list and records what was asked. */
function scripted(answers: string[]): Terminal & { asked: string[] } {
  const asked: string[] = [];
  const next = (question: string, fallback?: string) => {
    asked.push(question);
    if (!answers.length) throw new Error(`no answer left for "${question}"`);
    return Promise.resolve(answers.shift() || fallback || '');
  };
  return { asked, ask: next, askSecret: (q) => next(q), say: () => {}, close: () => {} };
}

describe("init's questions", () => {
  it('takes the hosts and the dynamic DNS credentials, the API skipped', async () => {
    const terminal = scripted(['home.example.com', 'me', 'key-1', '']);
    expect(await interview(terminal, {})).toEqual({ hosts: 'home.example.com', dyndnsUser: 'me', dyndnsKey: 'key-1' });
  });

  it('takes the API credentials alone, dynamic DNS skipped', async () => {
    const terminal = scripted(['home.example.com', '', 'api-me', 'pw']);
    expect(await interview(terminal, {})).toMatchObject({
      hosts: 'home.example.com',
      apiUser: 'api-me',
      apiPassword: 'pw',
    });
  });

  it('offers what was given: Enter takes it, and a given secret is not asked again', async () => {
    const terminal = scripted(['', '', '']);
    const answers = await interview(terminal, { hosts: 'a.example.com', dyndnsUser: 'me', dyndnsKey: 'k' });
    expect(answers).toMatchObject({ hosts: 'a.example.com', dyndnsUser: 'me', dyndnsKey: 'k' });
    expect(terminal.asked.some((q) => /key/i.test(q))).toBe(false);
  });

  it('asks an empty answer again, a bounded number of times', async () => {
    const terminal = scripted(['', '', '', '', '', '', '']);
    const answers = await interview(terminal, {});
    expect(answers).toEqual({ hosts: '' });
    expect(terminal.asked.filter((q) => /Host names/.test(q))).toHaveLength(3);
    expect(terminal.asked.filter((q) => /API user/.test(q))).toHaveLength(3);
  });
});
