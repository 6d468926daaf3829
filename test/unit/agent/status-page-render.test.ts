// The pages escape every text from outside: a provider's error message, a record's value, a
// key's name can hold markup, and the page's CSP is the second line of defence, not the first.
import { describe, expect, it } from 'vitest';
import type { AgentPageView } from '../../../src/agent/page-view.js';
import { renderGatewayPage } from '../../../src/gateway/status/page.js';
import { renderAgentPage } from '../../../src/agent/status-page.js';
import type { GatewayPageView } from '../../../src/gateway/status/page-view.js';

const EVIL = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;
const context = { nonce: 'n0nce', csrf: 'f0rm', token: `tok"><script>` };

describe('status pages escape outside text', () => {
  it("the agent's page", () => {
    const view: AgentPageView = {
      now: '2026-11-28T00:00:00.000Z',
      overall: { ok: false, text: EVIL },
      records: [
        {
          host: 'home.example.com',
          type: 'A',
          address: '81.0.2.15',
          since: '2026-11-27T00:00:00.000Z',
          via: 'dyndns',
          status: 'failing',
          reason: EVIL,
        },
      ],
      budget: { used: 1, limit: 60 },
      history: {
        rows: [
          {
            at: '2026-11-27T00:00:00.000Z',
            host: 'home.example.com',
            type: 'A',
            event: 'failed',
            message: EVIL,
            count: 2,
            lastAt: '2026-11-27T00:05:00.000Z',
          },
        ],
        page: 1,
        pages: 1,
        total: 1,
      },
      timeline: { start: 0, end: 1, records: [] },
      problems: [EVIL],
    };
    const html = renderAgentPage(view, context);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    // Exactly one script element: the page's own, with the nonce.
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script nonce="n0nce">']);
    expect(html).toContain('value="tok&#34;&#62;&#60;script&#62;"');
  });

  it("the gateway's page", () => {
    const view: GatewayPageView = {
      now: '2026-11-28T00:00:00.000Z',
      overall: { ok: true, text: 'fine' },
      zones: [
        {
          zone: 'example.com',
          serial: 1,
          size: 1,
          lastGoodReadAt: null,
          lastError: EVIL,
          records: [{ name: 'x.example.com', type: 'TXT', ttl: 60, value: EVIL, cut: 0 }],
          more: 0,
        },
      ],
      keys: [{ name: EVIL, rights: [EVIL], transfer: false }],
      updates: [{ time: '2026-11-28T00:00:00.000Z', zone: 'example.com', key: EVIL, client: EVIL, changes: [EVIL] }],
      refusals: [{ time: '2026-11-28T00:00:00.000Z', rcode: 'REFUSED', what: EVIL, why: EVIL }],
      budget: { used: 1, limit: 600 },
    };
    const html = renderGatewayPage(view, context);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img');
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script nonce="n0nce">']);
  });
});
