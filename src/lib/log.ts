// The one logger. Lines go to stderr: stdout is reserved for results. Under systemd
// (JOURNAL_STREAM set) each line starts with a syslog priority `<N>` so journald keeps the
// level; --log-format json writes one object per line for container log collectors.
// Every line passes through redact(), so a secret cannot leak through a careless message;
// text lines have control characters escaped and every part bounded (outside-text.ts), so
// what a provider wrote cannot forge a line or drive the terminal.
import { bound, escapeControls, OUTSIDE_TEXT_LIMIT } from './outside-text.js';
import { redact } from './redact.js';

/** A message is ours plus, at most, a few pieces of outside text. */
const MESSAGE_LIMIT = 4 * OUTSIDE_TEXT_LIMIT;

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
export type LogFormat = 'text' | 'json';
type LogFields = Record<string, string | number | boolean | undefined | null>;

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const SYSLOG_PRIORITY: Record<LogLevel, number> = { error: 3, warn: 4, info: 6, debug: 7 };

export interface Logger {
  error(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  debug(message: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  level: LogLevel;
  format: LogFormat;
  /** Where lines go; stderr unless a test captures them. */
  write?: (line: string) => void;
  journald?: boolean;
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(line));
  const journald = options.journald ?? Boolean(process.env.JOURNAL_STREAM);
  const threshold = RANK[options.level];

  const emit = (level: LogLevel, message: string, fields: LogFields = {}) => {
    if (RANK[level] > threshold) return;
    // Redact first, then cut: a secret straddling the limit is masked whole.
    const msg = bound(redact(message), MESSAGE_LIMIT);
    const present = Object.entries(fields)
      .filter(([, v]) => v !== undefined && v !== null)
      .map(([k, v]) => [k, typeof v === 'string' ? bound(redact(v)) : v] as const);
    let line: string;
    if (options.format === 'json') {
      // JSON.stringify escapes control characters itself.
      line = JSON.stringify({ time: new Date().toISOString(), level, msg, ...Object.fromEntries(present) });
    } else {
      const tail = present.map(([k, v]) => ` ${k}=${formatValue(v)}`).join('');
      line = escapeControls(journald ? `<${SYSLOG_PRIORITY[level]}>${msg}${tail}` : `${level}: ${msg}${tail}`);
    }
    write(redact(line) + '\n');
  };
  return {
    error: (m, f) => emit('error', m, f),
    warn: (m, f) => emit('warn', m, f),
    info: (m, f) => emit('info', m, f),
    debug: (m, f) => emit('debug', m, f),
  };
}

function formatValue(value: unknown): string {
  const text = String(value);
  return /[\s"=]/.test(text) ? JSON.stringify(text) : text;
}

/** A logger that drops everything, for library callers that pass none. */
export const silentLogger: Logger = { error() {}, warn() {}, info() {}, debug() {} };
