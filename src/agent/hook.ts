// --on-change: a shell command per changed record, with what changed in its environment and
// none of ddedge's secrets. Bounded by a timeout; its failure is reported, not propagated.
import { spawn } from 'node:child_process';
import type { Logger } from '../log.js';
import type { Outcome } from './outcome.js';

/** Variables a hook never inherits: ddedge's settings and anything that looks like a secret. */
const WITHHELD = /^DDEDGE_|KEY|PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL/i;
const OUTPUT_LIMIT = 2000;

export function hookEnvironment(outcome: Outcome, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent)) if (value !== undefined && !WITHHELD.test(name)) env[name] = value;
  return {
    ...env,
    DDEDGE_HOST: outcome.host,
    DDEDGE_TYPE: outcome.type,
    DDEDGE_OLD_ADDRESS: outcome.previous ?? '',
    DDEDGE_NEW_ADDRESS: outcome.address,
    DDEDGE_VIA: outcome.via,
    // A host behind the router: the IPv6 prefix its new address was built from.
    DDEDGE_PREFIX: outcome.prefix ?? '',
  };
}

export function runHook(command: string, timeoutMs: number, outcome: Outcome, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], { env: hookEnvironment(outcome), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const collect = (chunk: Buffer) => {
      if (output.length < OUTPUT_LIMIT) output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The whole process group: a shell's children must not outlive the hook.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      logger.warn(`--on-change could not start: ${error.message}`);
      resolve();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const tail = output.trim() ? `: ${output.trim().slice(0, 300)}` : '';
      if (timedOut) logger.warn(`--on-change for ${outcome.host} ${outcome.type} was stopped after ${timeoutMs} ms${tail}`);
      else if (code !== 0) logger.warn(`--on-change for ${outcome.host} ${outcome.type} failed (${signal ?? `exit ${code}`})${tail}`);
      else logger.info(`--on-change ran for ${outcome.host} ${outcome.type}`);
      resolve();
    });
  });
}
