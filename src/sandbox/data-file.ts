// `ddedge sandbox --data FILE`: the account kept across restarts. Everything that would make
// the file unusable is found at start (exit 2, one line): a file that is not JSON, `null` or
// another shape, a directory in its place, or a directory that does not exist or cannot be
// written (which would otherwise answer every later write with a 500).
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../lib/errors.js';
import { demoModel, type SandboxModel } from './model.js';

export function loadSandboxData(path: string): SandboxModel {
  const dir = dirname(resolve(path));
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error(), { code: 'ENOTDIR' });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    throw new ConfigError(
      `--data: cannot keep "${path}": its directory ${dir} ${reason(error)}; create it or choose another path`,
    );
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return demoModel();
    throw new ConfigError(
      `--data: cannot read "${path}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new ConfigError(`--data: "${path}" is not JSON; fix it, or remove it to start from the demo account`);
  }
  if (!isSandboxData(data)) {
    throw new ConfigError(
      `--data: "${path}" does not hold sandbox data (an object with "account" and "services"); fix it, or remove it ` +
        `to start from the demo account`,
    );
  }
  return data;
}

function isSandboxData(data: unknown): data is SandboxModel {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const { account, services } = data as Record<string, unknown>;
  return (
    typeof account === 'object' &&
    account !== null &&
    typeof (account as Record<string, unknown>).apiUser === 'string' &&
    Array.isArray(services)
  );
}

function reason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'does not exist';
  if (code === 'ENOTDIR') return 'is not a directory';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'is not writable';
  return `cannot be used (${code ?? (error as Error).message})`;
}
