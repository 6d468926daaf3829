// --on-change: a shell command per changed record, with what changed in its environment and
// none of ddedge's secrets. Bounded by a timeout; its failure is reported, not propagated.
import { spawn } from 'node:child_process';
import { systemClock, type Clock } from '../lib/clock.js';
import type { Logger } from '../lib/log.js';
import { bound, escapeControls } from '../lib/outside-text.js';
import { redact } from '../lib/redact.js';
import type { Outcome } from './outcome.js';

/** Variables a hook never inherits: ddedge's settings and anything that looks like a secret. */
const WITHHELD = /^DDEDGE_|KEY|PASSWORD|PASSWD|SECRET|TOKEN|CREDENTIAL/i;
/** Output shown at debug level; more is read and masked first (see collect()). */
const OUTPUT_LIMIT = 2000;
const KEPT_LIMIT = 2 * OUTPUT_LIMIT;

export function hookEnvironment(outcome: Outcome, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(parent))
    if (value !== undefined && !WITHHELD.test(name)) env[name] = value;
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

/** After the hook's shell exits, how long its output may still arrive before we stop reading. */
const DRAIN_MS = 200;

/**
 * Runs the hook in a process group of its own. When the shell exits (or is stopped at the
 * timeout) whatever it left in that group (`sleep 777 &`) is stopped too, and the pipes are
 * closed on our side: a grandchild that left the group (`setsid`, a daemon) may keep them
 * open forever, and ddedge must not wait for it.
 */
export function runHook(
  command: string,
  timeoutMs: number,
  outcome: Outcome,
  logger: Logger,
  /** The timeout and the wait for the last output run on it (default: the system's). */
  clock: Clock = systemClock,
): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', command], {
      env: hookEnvironment(outcome),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    const collect = (chunk: Buffer) => {
      // Keep reading past the limit, or a chatty hook would block on a full pipe. What is kept
      // runs well past what is shown, so a secret cut off at the end of it is never shown.
      if (output.length < KEPT_LIMIT) output += chunk.toString('utf8');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    const stopGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // The group is empty: nothing left to stop.
      }
    };
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let settled = false;
    let cancelDrain: (() => void) | undefined;
    const cancelTimeout = clock.after(timeoutMs, () => {
      timedOut = true;
      stopGroup();
      // The shell is normally reaped at once; never wait beyond this for a report.
      cancelDrain ??= clock.after(5 * DRAIN_MS, finish);
    });
    function finish() {
      if (settled) return;
      settled = true;
      cancelTimeout();
      cancelDrain?.();
      stopGroup();
      child.stdout!.destroy();
      child.stderr!.destroy();
      report({ output, timedOut, timeoutMs, exit, outcome, logger });
      resolve();
    }
    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      cancelTimeout();
      logger.warn(`--on-change could not start: ${error.message}`);
      resolve();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      if (!timedOut) cancelTimeout();
      cancelDrain?.();
      cancelDrain = clock.after(DRAIN_MS, finish);
    });
    child.on('close', finish);
  });
}

/** What the hook did, in the log: stopped at its timeout, failed, or ran; its output masked. */
function report(run: {
  output: string;
  timedOut: boolean;
  timeoutMs: number;
  exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  outcome: Outcome;
  logger: Logger;
}): void {
  const { outcome, logger, exit } = run;
  // Masked whole, then cut: a cut first left the start of a secret that straddled it.
  const text = redact(run.output).trim();
  const tail = text ? `: ${bound(escapeControls(text), 300)}` : '';
  const what = `--on-change for ${outcome.host} ${outcome.type}`;
  if (run.timedOut) logger.warn(`${what} was stopped after ${run.timeoutMs} ms${tail}`);
  else if (exit?.code !== 0) logger.warn(`${what} failed (${exit?.signal ?? `exit ${exit?.code}`})${tail}`);
  else logger.info(`--on-change ran for ${outcome.host} ${outcome.type}`);
  // Its whole output (as far as kept) for whoever debugs the hook; the logger redacts it.
  if (text) logger.debug(`${what} output`, { output: bound(text, OUTPUT_LIMIT) });
}
