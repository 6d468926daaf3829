// ddedge sandbox --data FILE: the demo account when the file is new; every file it could not
// keep is refused at start (exit 2), in one line.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/lib/errors.js';
import { loadSandboxData } from '../../../src/sandbox/data-file.js';
import { demoModel } from '../../../src/sandbox/model.js';
import { tempDir } from '../../helpers/cli.js';

const errorOf = (path: string): { message: string; exitCode?: number } => {
  try {
    loadSandboxData(path);
  } catch (error) {
    return error as Error & { exitCode: number };
  }
  throw new Error('no error');
};

describe('loadSandboxData', () => {
  it('starts from the demo account when the file does not exist yet', () => {
    const model = loadSandboxData(join(tempDir('ddedge-data-'), 'sandbox.json'));
    expect(model.account.apiUser).toBe(demoModel().account.apiUser);
    expect(model.services.map((s) => s.name)).toEqual(demoModel().services.map((s) => s.name));
  });

  it('reads back the account a file keeps', () => {
    const path = join(tempDir('ddedge-data-'), 'sandbox.json');
    const kept = { ...demoModel(), account: { ...demoModel().account, apiUser: 'kept-user' } };
    writeFileSync(path, JSON.stringify(kept));
    expect(loadSandboxData(path).account.apiUser).toBe('kept-user');
  });

  it.each([
    ['not JSON', '{"account":', 'is not JSON'],
    ['null', 'null', 'does not hold sandbox data'],
    ['an array', '[]', 'does not hold sandbox data'],
    ['an account without its user', '{"account":{},"services":[]}', 'does not hold sandbox data'],
  ])('refuses a file holding %s (exit 2)', (_what, text, message) => {
    const path = join(tempDir('ddedge-data-'), 'sandbox.json');
    writeFileSync(path, text);
    const error = errorOf(path);
    expect(error.message).toContain(message);
    expect(error.exitCode).toBe(ExitCode.usage);
  });

  it('refuses a directory in its place, and a directory it cannot write to', () => {
    const dir = tempDir('ddedge-data-');
    mkdirSync(join(dir, 'sandbox.json'));
    expect(errorOf(join(dir, 'sandbox.json')).message).toMatch(/--data: cannot read ".*sandbox\.json": EISDIR/);
    expect(errorOf('/nonexistent-dir/sandbox.json').message).toContain('its directory /nonexistent-dir does not exist');
    writeFileSync(join(dir, 'file'), '');
    expect(errorOf(join(dir, 'file', 'sandbox.json')).message).toContain('is not a directory');
  });
});
