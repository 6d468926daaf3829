// The strict exposition-format reader the endpoint tests scrape with: it must accept what
// the format allows and refuse what it forbids, or the scrape tests prove nothing.
import { describe, expect, it } from 'vitest';
import { renderMetrics } from '../../../src/agent/metrics.js';
import { loadConfig } from '../../../src/config/load.js';
import { parsePrometheusText } from '../../helpers/prometheus-text.js';

describe('the strict Prometheus text reader', () => {
  it('reads families, help, types, escaped label values and special values', () => {
    const families = parsePrometheusText(
      '# HELP x_total A \\\\ help\\nline.\n# TYPE x_total counter\nx_total{a="q\\"uote",b="back\\\\slash\\nnl"} 3 1700000000000\nx_total{a="other"} +Inf\n# a comment\n\ny NaN\n',
    );
    expect(families.get('x_total')).toEqual({
      name: 'x_total',
      help: 'A \\ help\nline.',
      type: 'counter',
      samples: [
        { name: 'x_total', labels: { a: 'q"uote', b: 'back\\slash\nnl' }, value: 3 },
        { name: 'x_total', labels: { a: 'other' }, value: Infinity },
      ],
    });
    expect(families.get('y')!.samples[0]!.value).toBeNaN();
  });

  it.each([
    ['a second TYPE', '# TYPE a gauge\n# TYPE a gauge\na 1\n', /a second TYPE for a/],
    ['a second HELP', '# HELP a x\n# HELP a y\na 1\n', /a second HELP for a/],
    ['TYPE after samples', 'a 1\n# TYPE a gauge\n', /TYPE for a after its samples/],
    ['a family split in two', '# TYPE a gauge\na 1\nb 2\na{x="1"} 3\n', /family a appears again/],
    ['a bad escape', 'a{x="\\t"} 1\n', /bad escape \\t/],
    ['an unescaped quote', 'a{x="say "hi""} 1\n', /expected , or }|unescaped quote/],
    ['a repeated label', 'a{x="1",x="2"} 1\n', /label x repeated/],
    ['a reserved label', 'a{__name__="1"} 1\n', /reserved/],
    ['a duplicate series', 'a{x="1",y="2"} 1\na{y="2",x="1"} 2\n', /duplicate series/],
    ['a value that is not a number', 'a 1,5\n', /is not a number/],
    ['no value', 'a{x="1"}\n', /expected " <value>/],
    ['an unknown type', '# TYPE a meter\na 1\n', /unknown type/],
    ['no final newline', 'a 1', /must end with a newline/],
  ])('refuses %s', (_name, text, pattern) => {
    expect(() => parsePrometheusText(text)).toThrow(pattern);
  });

  it('accepts what ddedge renders, label values with quotes and backslashes included', () => {
    const config = loadConfig({ flags: { host: ['home.example.com'] }, env: {}, purpose: 'state' });
    const state = {
      version: 1 as const,
      records: {
        'home.example.com/A': {
          host: 'home.example.com',
          type: 'A' as const,
          address: 'we"ird\\one\nline',
          sentAt: '2026-01-01T00:00:00Z',
        },
      },
      lastCycleExitCode: 0,
    };
    const families = parsePrometheusText(renderMetrics(state, config));
    expect(families.get('ddedge_address_info')!.samples[0]!.labels.address).toBe('we"ird\\one\nline');
  });
});
