// What `ddedge sandbox --print-env` prints: lines a POSIX shell reads with `. FILE`. The
// settings ddedge reads (DDEDGE_API_URL …) are exported, so every later command finds the
// sandbox; its ports are plain shell variables (SANDBOX_PORT …) for a script's own use (dig -p,
// --dns-server), never exported, as no ddedge setting is named so. Every value is quoted: a
// shell reads it back exactly.
import type { Sandbox } from './server.js';

/** `value` in single quotes, as every POSIX shell reads it back unchanged. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The sandbox's URLs, demo account and ports as shell lines, `SANDBOX_PORT` the last. */
export function sandboxShellLines(sandbox: Pick<Sandbox, 'url' | 'model' | 'dnsPort'>): string {
  const { account } = sandbox.model;
  const url = new URL(sandbox.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const exported: [string, string][] = [
    ['DDEDGE_API_URL', sandbox.url],
    ['DDEDGE_API_USER', account.apiUser],
    ['DDEDGE_API_PASSWORD', account.apiPassword],
    ['DDEDGE_DYNDNS_URL', sandbox.url],
    ['DDEDGE_DYNDNS_USER', account.dyndnsUser],
    ['DDEDGE_DYNDNS_KEY', account.dyndnsKey],
  ];
  // SANDBOX_PORT last: a script that waits for it finds every line before it written.
  const shell: [string, string][] = [
    ['SANDBOX_HOST', host],
    ...(sandbox.dnsPort === undefined
      ? []
      : ([
          ['SANDBOX_DNS_PORT', String(sandbox.dnsPort)],
          ['SANDBOX_DNS', `${url.hostname}:${sandbox.dnsPort}`],
        ] as [string, string][])),
    ['SANDBOX_PORT', url.port || (url.protocol === 'https:' ? '443' : '80')],
  ];
  return (
    `# ddedge sandbox at ${sandbox.url}: a demo account, nothing here is real; read with . FILE\n` +
    exported.map(([name, value]) => `export ${name}=${shellQuoted(value)}\n`).join('') +
    shell.map(([name, value]) => `${name}=${shellQuoted(value)}\n`).join('')
  );
}
