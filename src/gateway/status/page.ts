// The gateway's status page: the same page as the agent's (style, CSP, refresh), with the
// gateway's view: zones and their records, keys and their rights, recent updates and
// refusals, the call budget. Every text from outside is escaped here.
import type { GatewayPageView } from './page-view.js';
import { escapeHtml } from '../../probe/html.js';
import { pageEnd, pageHead, updateNowForm, utcText, type PageContext } from '../../probe/page-frame.js';

export function renderGatewayPage(view: GatewayPageView, context: PageContext): string {
  const { nonce } = context;
  const asked = context.asked
    ? '<p class="notice" role="status">The zones are being read again from the provider; this page ' +
      'shows the new reading once it is done.</p>'
    : '';
  return (
    `${pageHead('ddedge gateway status', nonce)}<main>
<h1>ddedge: DNS gateway status</h1>
<p class="overall ${view.overall.ok ? 'ok' : 'bad'}" role="status">${escapeHtml(view.overall.text)}</p>
<ul class="facts"><li>Provider calls this hour: <strong>${view.budget.used} of ${view.budget.limit}</strong></li>` +
    `<li>Now: <strong>${time(view.now)}</strong></li></ul>
${asked}
${updateNowForm(context, 'Read the zones again now')}
<h2>Zones</h2>
${view.zones.map(zoneSection).join('\n')}
<h2 id="keys">Keys</h2>
${keysTable(view.keys)}
<h2 id="updates">Recent updates</h2>
${updatesTable(view.updates)}
<h2 id="refused">Refused requests</h2>
${refusalsTable(view.refusals)}
<h2 id="secondaries">Secondaries</h2>
${secondariesTable(view.secondaries)}
<p class="muted">Refreshes every 30 seconds while shown. Times are UTC. The same data as JSON: ` +
    `<a href="/status">/status</a>.</p>
</main>
${pageEnd(nonce)}`
  );
}

/** A table's head row: one column header per name. */
const headRow = (names: string[]): string =>
  `<thead><tr>${names.map((name) => `<th scope="col">${name}</th>`).join('')}</tr></thead>`;

function zoneSection(z: GatewayPageView['zones'][number], i: number): string {
  const read = z.lastGoodReadAt ? time(z.lastGoodReadAt) : 'not yet';
  const facts =
    `<li>Serial: <strong>${z.serial ?? '-'}</strong></li><li>Records: <strong>${z.size}</strong></li>` +
    `<li>Last read from the provider: <strong>${read}</strong></li>` +
    (z.lastError ? `<li class="status-bad">Last error: ${escapeHtml(z.lastError)}</li>` : '');
  const rows = z.records
    .map(
      (r) =>
        `<tr><th scope="row">${escapeHtml(r.name)}</th><td ` +
        `data-label="Type">${escapeHtml(r.type)}</td><td data-label="TTL">${r.ttl}</td><td class="addr" ` +
        `data-label="Value">${escapeHtml(r.value)}${cutNote(r.cut)}</td></tr>`,
    )
    .join('\n');
  const more = z.more
    ? `<p class="muted">${z.more} more: <code>dig AXFR</code> with a transfer key gives ` + `them all.</p>`
    : '';
  return `<h3 id="zone-${i}">${escapeHtml(z.zone)}</h3>
<ul class="facts">${facts}</ul>
<details><summary>The records as the gateway serves them${z.more ? ` (the first ${z.records.length})` : ''}</summary>
<div class="scroll"><table class="cards" aria-labelledby="zone-${i}">
<caption>Records of ${escapeHtml(z.zone)}</caption>
${headRow(['Name', 'Type', 'TTL', 'Value'])}
<tbody>
${rows}
</tbody></table></div>${more}</details>`;
}

function keysTable(keys: GatewayPageView['keys']): string {
  const rows =
    keys
      .map(
        (k) =>
          `<tr><th scope="row">${escapeHtml(k.name)}</th><td data-label="May ` +
          `change">${k.rights.map(escapeHtml).join('<br>') || 'nothing'}</td><td data-label="Zone ` +
          `transfer">${k.transfer ? 'yes' : 'no'}</td></tr>`,
      )
      .join('\n') || '<tr><td colspan="3">No key.</td></tr>';
  return `<div class="scroll"><table class="cards" aria-labelledby="keys">
<caption>Each key by name and what it may change (never its secret)</caption>
${headRow(['Key', 'May change', 'Zone transfer'])}
<tbody>
${rows}
</tbody></table></div>`;
}

function updatesTable(updates: GatewayPageView['updates']): string {
  if (!updates.length) return '<p>No update applied yet.</p>';
  const rows = updates
    .map(
      (u) =>
        `<tr><td data-label="When">${time(u.time)}</td><th ` +
        `scope="row">${escapeHtml(u.key)}</th><td data-label="Client">${escapeHtml(u.client)}</td><td ` +
        `data-label="Zone">${escapeHtml(u.zone)}</td><td ` +
        `data-label="Changes">${u.changes.map(escapeHtml).join('<br>')}</td></tr>`,
    )
    .join('\n');
  return `<div class="scroll"><table class="cards" aria-labelledby="updates">
<caption>From the journal, newest first</caption>
${headRow(['When', 'Key', 'Client', 'Zone', 'Changes'])}
<tbody>
${rows}
</tbody></table></div>`;
}

function refusalsTable(refusals: GatewayPageView['refusals']): string {
  if (!refusals.length) return '<p>None since the gateway started.</p>';
  const rows = refusals
    .map(
      (r) =>
        `<tr><td data-label="When">${time(r.time)}</td><th ` +
        `scope="row">${escapeHtml(r.what)}</th><td data-label="Answer">${escapeHtml(r.rcode)}</td><td ` +
        `data-label="Why">${escapeHtml(r.why)}</td></tr>`,
    )
    .join('\n');
  return `<div class="scroll"><table class="cards" aria-labelledby="refused">
<caption>Since the gateway started, newest first</caption>
${headRow(['When', 'What', 'Answer', 'Why'])}
<tbody>
${rows}
</tbody></table></div>`;
}

function secondariesTable(secondaries: GatewayPageView['secondaries']): string {
  if (!secondaries?.length) return '<p>No NOTIFY sent and no zone transfer made since the gateway started.</p>';
  const rows = secondaries
    .map((r) => {
      const notify = r.notify
        ? `${time(r.notify.at)}, serial ${r.notify.serial}, ` +
          `${r.notify.acknowledged ? 'acknowledged' : '<span class="status-bad">not acknowledged</span>'}`
        : '-';
      const transfer = r.transfer ? `${time(r.transfer.at)}, ${r.transfer.type}` : 'none yet';
      return (
        `<tr><th scope="row">${escapeHtml(r.secondary)}</th><td data-label="Zone">${escapeHtml(r.zone)}</td>` +
        `<td data-label="Last NOTIFY">${notify}</td><td data-label="Last transfer">${transfer}</td></tr>`
      );
    })
    .join('\n');
  return `<div class="scroll"><table class="cards" aria-labelledby="secondaries">
<caption>NOTIFY sent (--notify) and zone transfers made since the gateway started, newest first</caption>
${headRow(['Secondary', 'Zone', 'Last NOTIFY', 'Last transfer'])}
<tbody>
${rows}
</tbody></table></div>`;
}

/** After a value cut short: how many of its bytes are not shown. */
const cutNote = (cut: number): string => (cut ? `<span class="muted">… (${bytesText(cut)} more)</span>` : '');

const bytesText = (n: number): string => `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`;

const time = (iso: string): string => `<time datetime="${escapeHtml(iso)}">${escapeHtml(utcText(iso))}</time>`;
