// The dynamic DNS interface as the real host behaves: GET /<format>/ with user and key
// (`password`, as real clients send, or the spec's `apikey`), host, and an optional ip that
// defaults to the caller's address. It changes an existing A entry; it cannot create one.
import { familyOfAddress } from '../lib/address.js';
import { lowerName } from '../lib/names.js';
import type { DyndnsFormat } from '../dyndns/result.js';
import type { SandboxModel } from './model.js';

export interface DyndnsAnswer {
  status: number;
  contentType: string;
  body: string;
  /** The model changed and should be saved. */
  changed: boolean;
  /** For the sandbox's request log. */
  summary: string;
}

interface Outcome {
  success: boolean;
  userKnown: boolean;
  host?: { name: string; value: string; type: string; updated: boolean };
  messages: string[];
}

/**
 * How a changed address is announced in plain answers: the spec's `UPDATE: <ip>`, or `IP:<ip>` as seen from the real
 * service.
 */
export type PlainStyle = 'update' | 'ip';

export function handleDyndns(
  model: SandboxModel,
  format: DyndnsFormat,
  query: URLSearchParams,
  callerAddress: string,
  plainStyle: PlainStyle = 'update',
): DyndnsAnswer {
  const outcome = decide(model, query, callerAddress);
  const changed = Boolean(outcome.host?.updated);
  const summary = outcome.success
    ? changed
      ? `updated to ${outcome.host!.value}`
      : 'unchanged'
    : `error: ${outcome.messages.join('; ')}`;
  return { status: 200, changed, summary, ...render(format, outcome, query.get('user') ?? '', plainStyle) };
}

function decide(model: SandboxModel, query: URLSearchParams, callerAddress: string): Outcome {
  const user = query.get('user');
  const key = query.get('password') ?? query.get('apikey');
  if (!user || !key || !query.get('host')) return { success: false, userKnown: false, messages: ['Incorrect data'] };
  if (user !== model.account.dyndnsUser || key !== model.account.dyndnsKey)
    return { success: false, userKnown: user === model.account.dyndnsUser, messages: ['Incorrect data'] };
  // A host name reads as DNS reads it: case and one final dot make no difference.
  const hostName = lowerName(query.get('host')!);
  const ip = query.get('ip') || callerAddress;
  if (familyOfAddress(ip) !== 4) return { success: false, userKnown: true, messages: [`Incorrect IP address: ${ip}`] };
  const entry = model.services.flatMap((s) => s.dns).find((e) => e.type === 'A' && e.name === hostName);
  if (!entry) return { success: false, userKnown: true, messages: [`Host ${hostName} not found in your DNS zones`] };
  const updated = entry.value !== ip;
  entry.value = ip;
  return {
    success: true,
    userKnown: true,
    host: { name: entry.name, value: ip, type: 'A', updated },
    messages: [updated ? 'IP updated' : 'IP unchanged'],
  };
}

function render(
  format: DyndnsFormat,
  outcome: Outcome,
  user: string,
  plainStyle: PlainStyle,
): Omit<DyndnsAnswer, 'status' | 'changed' | 'summary'> {
  const ts = new Date().toISOString();
  if (format === 'json') {
    const body: Record<string, unknown> = { success: outcome.success, version: '2.0', ts, messages: outcome.messages };
    if (outcome.userKnown) body.user = user;
    if (outcome.host) body.host = outcome.host;
    return { contentType: 'application/json', body: JSON.stringify(body) };
  }
  if (format === 'plain') {
    const changedLine = plainStyle === 'ip' ? `IP:${outcome.host?.value}` : `UPDATE: ${outcome.host?.value}`;
    const lines = outcome.success
      ? ['OK', ...(outcome.host?.updated ? [changedLine] : [])]
      : ['ERROR', ...outcome.messages];
    return { contentType: 'text/plain; charset=utf-8', body: lines.join('\n') + '\n' };
  }
  const escapeXml = (t: string) =>
    t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  const parts = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<data success="${outcome.success}" version="2.0" oper="update">`,
  ];
  if (outcome.userKnown && outcome.success)
    parts.push(
      `<resData><user t="${ts}">${escapeXml(user)}</user><request success="${Boolean(outcome.host?.updated)}"/>` +
        `</resData>`,
    );
  if (outcome.host)
    parts.push(
      `<host type="${outcome.host.type}"><name>${escapeXml(outcome.host.name)}</name><value>${outcome.host.value}` +
        `</value></host>`,
    );
  if (outcome.success)
    parts.push(`<informs>${outcome.messages.map((m) => `<inform>${escapeXml(m)}</inform>`).join('')}</informs>`);
  else parts.push(`<errors>${outcome.messages.map((m) => `<error>${escapeXml(m)}</error>`).join('')}</errors>`);
  parts.push('</data>');
  return { contentType: 'application/xml; charset=utf-8', body: parts.join('') };
}
