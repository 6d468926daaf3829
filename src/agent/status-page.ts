// The agent's status page: one server-rendered HTML document, everything inline (no request
// leaves it), readable without its one small script (auto-refresh), every table with a
// caption and header cells for screen readers. Every text from outside is escaped here.
import { escapeHtml } from '../probe/html.js';
import { pageEnd, pageHead, updateNowForm, utcText, type PageContext } from '../probe/page-frame.js';
import type { AgentPageView, RecordRow } from './page-view.js';
import { describeDuration, type HistoryRow } from './history-view.js';
import { timelinePicture } from './timeline-picture.js';
import { PERSIST_WARN_DAYS } from './persist-watch.js';

export function renderAgentPage(view: AgentPageView, context: PageContext): string {
  const { nonce } = context;
  const now = Date.parse(view.now);
  const ago = (iso: string | undefined) =>
    iso
      ? `${time(iso)} <span class="muted">(${escapeHtml(describeDuration(Math.max(0, now - Date.parse(iso))))} ` +
        `ago)</span>`
      : 'never';
  const notices = [
    ...(context.asked
      ? ['<p class="notice" role="status">A cycle was asked for; this page shows its result once it is done.</p>']
      : []),
    ...view.problems.map((p) => `<p class="notice problem" role="alert">${escapeHtml(p)}</p>`),
    ...(view.persisted ?? [])
      .filter((r) => r.status === 'expiring' || r.status === 'expired')
      .map((r) => `<p class="notice problem" role="alert">${escapeHtml(`${r.name}: ${r.text}`)}</p>`),
  ].join('');
  return (
    `${pageHead('ddedge status', nonce)}<main>
<h1>ddedge: dynamic DNS status</h1>
<p class="overall ${view.overall.ok ? 'ok' : 'bad'}" role="status">${escapeHtml(view.overall.text)}</p>
${notices}
<ul class="facts">
<li>Last check: <strong>${ago(view.lastCycleAt)}</strong></li>
<li>Last success: <strong>${ago(view.lastSuccessAt)}</strong></li>
<li>Next cycle: <strong>${view.nextCycleAt ? `about ${time(view.nextCycleAt)}` : 'soon'}</strong></li>
<li>Provider calls this hour: <strong>${view.budget.used} of ${view.budget.limit}</strong></li>
</ul>
${updateNowForm(context, 'Update now')}
<h2 id="records">Records</h2>
<div class="scroll">
<table class="cards rec" aria-labelledby="records">
<caption>One line per host and record type</caption>
<thead><tr><th scope="col">Host</th><th scope="col">Type</th><th scope="col">Address</th><th scope="col">Since</th>` +
    `<th scope="col">Sent via</th><th scope="col">Status</th></tr></thead>
<tbody>
${view.records.map((r) => recordLine(r, now)).join('\n') || '<tr><td colspan="6">No record yet.</td></tr>'}
</tbody>
</table>
</div>
${sourcesTable(view)}
${persistedTable(view)}
<h2 id="history">Address history</h2>
${timelinePicture(view.timeline)}
${historyTable(view, context)}
<p class="muted">Refreshes every 30 seconds while shown. Times are UTC. The same data as JSON: <a href="/status">` +
    `/status</a>; <code>ddedge status --history</code> in a terminal.</p>
</main>
${pageEnd(nonce)}`
  );
}

function recordLine(r: RecordRow, now: number): string {
  const css =
    r.status === 'up to date' ? 'ok' : r.status === 'waiting' ? 'wait' : r.status === 'failing' ? 'bad' : 'none';
  const since = r.since
    ? `${when(r.since)}, for ${escapeHtml(describeDuration(Math.max(0, now - Date.parse(r.since))))}`
    : '-';
  const status = `${escapeHtml(capitalised(r.status))}${r.reason ? `: ${escapeHtml(r.reason)}` : ''}`;
  // The phone's card labels and the address's typeface come from the column (page-style.ts), not
  // from attributes on every cell; cells and rows end where the next begins (HTML's optional end tags).
  // A container's name says which containers gave it, under the name.
  const from = r.from ? `<br><span class="muted">${escapeHtml(r.from)}</span>` : '';
  return (
    `<tr><th scope="row">${escapeHtml(r.host)}${from}<td>${r.type}<td>${escapeHtml(r.address ?? '-')}<td>${since}<td>` +
    `${escapeHtml(r.via ?? '-')}<td class="${css}">${status}`
  );
}

function sourcesTable(view: AgentPageView): string {
  const lines = (view.sources ?? []).flatMap((d) =>
    d.answers.map(
      (a) =>
        `<tr><th scope="row">${sourceText(a.source)}<td>IPv${d.family}<td>${
          a.address ? `<code>` + `${escapeHtml(a.address)}</code>` : '-'
        }${a.error ? ` <span class="status-bad">${escapeHtml(a.error)}</span>` : ''}` +
        `<td>${a.ms} ms<td>${when(d.at)}`,
    ),
  );
  if (!lines.length) return '';
  return (
    `<h2 id="sources">Address sources</h2>
<div class="scroll">
<table class="cards src" aria-labelledby="sources">
<caption>What each source answered at the last detection, and how long it took</caption>
<thead><tr><th scope="col">Source</th><th scope="col">Family</th><th scope="col">Answer</th><th scope="col">` +
    `Took</th><th scope="col">Asked at</th></tr></thead>
<tbody>
${lines.join('\n')}
</tbody>
</table>
</div>`
  );
}

/** The DNS-PERSIST-01 records kept from this state directory, when there are any. */
function persistedTable(view: AgentPageView): string {
  if (!view.persisted?.length) return '';
  const css = { valid: 'ok', 'no expiry': 'ok', expiring: 'wait', expired: 'bad' } as const;
  // A rare table: its phone card labels ride on the cells (page-style.ts labels the frequent ones by column).
  const lines = view.persisted.map((r) => {
    const policy = r.wildcard ? 'wildcard' : 'the name only';
    const until = r.persistUntil ? when(r.persistUntil) : '-';
    return (
      `<tr><th scope="row">${escapeHtml(r.name)}<td data-label="Issuer">${escapeHtml(r.issuer)}` +
      `<td data-label="Account"><code>${escapeHtml(r.accountUri)}</code><td data-label="Policy">${policy}` +
      `<td data-label="Persist until">${until}<td data-label="Status" class="${css[r.status]}">` +
      escapeHtml(capitalised(r.text))
    );
  });
  return (
    `<h2 id="persist">DNS-PERSIST-01 records</h2>
<div class="scroll">
<table class="cards persist" aria-labelledby="persist">
<caption>Kept by ddedge acme persist; a warning ${PERSIST_WARN_DAYS} days before persistUntil</caption>
<thead><tr><th scope="col">Record</th><th scope="col">Issuer</th><th scope="col">Account</th><th scope="col">` +
    `Policy</th><th scope="col">Persist until</th><th scope="col">Status</th></tr></thead>
<tbody>
${lines.join('\n')}
</tbody>
</table>
</div>`
  );
}

function historyTable(view: AgentPageView, context: PageContext): string {
  const { rows, page, pages, total } = view.history;
  if (!total) return '<p>No address change or failure recorded yet.</p>';
  const link = (p: number, label: string, rel: string) =>
    `<a rel="${rel}" href="/?page=${p}${tokenQuery(context, '&')}#history">${label}</a>`;
  const nav =
    pages > 1
      ? `<nav class="pages" aria-label="History pages">${page > 1 ? link(page - 1, 'Newer', 'prev') : ''}<span>Page ` +
        `${page} of ${pages}</span>${page < pages ? link(page + 1, 'Older', 'next') : ''}</nav>`
      : '';
  return (
    `<div class="scroll">
<table class="cards hist" aria-labelledby="history">
<caption>Newest first: ${total} entr${total === 1 ? 'y' : 'ies'}${pages > 1 ? `, page ${page} of ${pages}` : ''}` +
    `</caption>
<thead><tr><th scope="col">When</th><th scope="col">Host</th><th scope="col">Type</th><th scope="col">What</th><th ` +
    `scope="col">Held for</th></tr></thead>
<tbody>
${rows.map(historyLine).join('\n')}
</tbody>
</table>
</div>
${nav}`
  );
}

function historyLine(row: HistoryRow): string {
  let what: string;
  if (row.event === 'changed')
    what =
      (row.old
        ? `From <code>${escapeHtml(row.old)}</code> to <code>${escapeHtml(row.new ?? '')}</code>`
        : `First sent: <code>${escapeHtml(row.new ?? '')}</code>`) + ` via ${escapeHtml(row.via ?? '-')}`;
  else if (row.event === 'failed')
    what = `<b class="bad">Failed</b>${
      (row.count ?? 1) > 1 ? ` ${row.count} cycles in a row (last ` + `${when(row.lastAt ?? row.at)})` : ''
    }: ${escapeHtml(row.message ?? row.reason ?? '')}`;
  else if (row.event === 'added' || row.event === 'removed')
    what = `${row.event === 'added' ? 'Name given' : 'Name let go'}: ${escapeHtml(row.message ?? '')}`;
  else what = '<b class="ok">Working again</b>';
  const held =
    row.heldMs === undefined ? '' : `${escapeHtml(describeDuration(row.heldMs))}${row.current ? ' (current)' : ''}`;
  return `<tr><td>${when(row.at)}<th scope="row">${escapeHtml(row.host)}<td>${row.type}<td>${what}<td>${held || '-'}`;
}

/**
 * A <time> element in UTC, to the second; its text ("2026-11-28 03:00:00") is a valid date and time itself, so it needs
 * no datetime attribute.
 */
const time = (iso: string): string => `<time>${escapeHtml(utcText(iso))}</time>`;
/**
 * The same time as plain text, for table cells: the column's header says what it is, and a <time> in each of a hundred
 * cells is weight.
 */
const when = (iso: string): string => escapeHtml(iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ''));
/** A host and its port (`ns1.example.net:53`, `[2001:db8::1]:8443`); one of up to HOST_AND_PORT_CHARS stays whole. */
const HOST_AND_PORT = /(\[[0-9A-Fa-f:.]+\]|[\w.-]+):\d{1,5}/g;
const HOST_AND_PORT_CHARS = 24;
/**
 * A source as a narrow screen may break it: after a slash and before an `@`, never inside a host and its port (a
 * port cut in two reads as two numbers).
 */
function sourceText(source: string): string {
  let html = '';
  let at = 0;
  for (const match of source.matchAll(HOST_AND_PORT)) {
    // A longer one (an IPv6 address) may break in its host, but keeps its port with the host's last character.
    const kept = match[0].length > HOST_AND_PORT_CHARS ? match[0].slice(match[0].lastIndexOf(':') - 1) : match[0];
    const start = match.index + match[0].length - kept.length;
    html += `${breakable(source.slice(at, start))}<span class="nobr">${escapeHtml(kept)}</span>`;
    at = match.index + match[0].length;
  }
  return html + breakable(source.slice(at));
}
const breakable = (text: string): string => escapeHtml(text).replaceAll('/', '/<wbr>').replaceAll('@', '<wbr>@');
const capitalised = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const tokenQuery = (context: PageContext, lead: string): string =>
  context.token ? `${lead}token=${encodeURIComponent(context.token)}` : '';
