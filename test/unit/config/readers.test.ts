// The shared readers of a setting's text: every setting of the agent and of the gateway is read
// with these, so what one accepts the other does, and a problem is worded one way.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/load.js';
import { readGatewaySettings } from '../../../src/config/gateway-settings.js';
import {
  listValues,
  readBoolean,
  readChoice,
  readCount,
  readDuration,
  readList,
  readUrl,
} from '../../../src/config/readers.js';

describe('readUrl', () => {
  it('takes https anywhere and http on loopback, written out', () => {
    expect(readUrl('https://api.example.com', '--api-url')).toEqual({ value: 'https://api.example.com/' });
    expect(readUrl('http://127.0.0.1:8443/x', '--api-url')).toEqual({ value: 'http://127.0.0.1:8443/x' });
    expect(readUrl('http://[::1]:9/', 'DDEDGE_API_URL')).toEqual({ value: 'http://[::1]:9/' });
  });

  it('refuses what is no URL, http beyond loopback and other schemes, naming the origin', () => {
    expect(readUrl('not a url', '--api-url')).toEqual({
      value: 'not a url',
      problem: '--api-url: "not a url" is not a URL; expected https://host[:port][/path]',
    });
    expect(readUrl('http://api.example.com/v1', 'DDEDGE_API_URL').problem).toBe(
      'DDEDGE_API_URL: http:// is allowed only for loopback hosts (127.0.0.0/8, ::1, localhost); use https://api.example.com/v1',
    );
    expect(readUrl('ftp://api.example.com', '--api-url').problem).toBe(
      '--api-url: unsupported scheme "ftp:"; expected https://',
    );
  });

  it('never quotes the credentials a refused URL carries', () => {
    const { problem } = readUrl('https//user:canary-secret@host', '--ping-url');
    expect(problem).toMatch(/^--ping-url: ".*" is not a URL/);
    expect(problem).not.toContain('canary-secret');
  });
});

describe('readChoice', () => {
  const formats = ['json', 'xml', 'plain'] as const;
  it('takes one of the values, exactly as written', () => {
    expect(readChoice('xml', formats, '--dyndns-format')).toEqual({ value: 'xml' });
  });
  it('refuses another case, a blank and anything else, listing the values', () => {
    expect(readChoice('XML', formats, '--dyndns-format')).toEqual({
      value: 'XML',
      problem: '--dyndns-format: "XML" is not one of json, xml, plain',
    });
    expect(readChoice('', formats, 'DDEDGE_DYNDNS_FORMAT').problem).toBe(
      'DDEDGE_DYNDNS_FORMAT: "" is not one of json, xml, plain',
    );
    expect(readChoice(' json', formats, 'X').problem).toBe('X: " json" is not one of json, xml, plain');
  });
});

describe('readBoolean', () => {
  it.each(['1', 'true', 'yes', 'on', 'TRUE', 'Yes', 'ON'])('%s is true', (text) =>
    expect(readBoolean(text, '--ipv6')).toEqual({ value: true }),
  );
  it.each(['0', 'false', 'no', 'off', 'False', 'NO', 'Off'])('%s is false', (text) =>
    expect(readBoolean(text, '--ipv6')).toEqual({ value: false }),
  );
  it.each(['maybe', '2', '', 'y', ' true', 'enabled'])('"%s" is a problem, and false', (text) => {
    expect(readBoolean(text, 'DDEDGE_IPV6')).toEqual({
      value: false,
      problem: `DDEDGE_IPV6: "${text}" is not a boolean; use 1/0, true/false, yes/no or on/off`,
    });
  });
  it('quotes the word in lower case, as it was compared', () => {
    expect(readBoolean('MAYBE', 'DDEDGE_IPV6').problem).toBe(
      'DDEDGE_IPV6: "maybe" is not a boolean; use 1/0, true/false, yes/no or on/off',
    );
  });
});

describe('readDuration', () => {
  const range = { min: 30_000, max: 7 * 86_400_000 };
  it('reads each form in ms, the bounds included', () => {
    expect(readDuration('5m', range, '--interval')).toEqual({ value: 300_000 });
    expect(readDuration('1h30m', range, '--interval')).toEqual({ value: 5_400_000 });
    expect(readDuration('45', range, '--interval')).toEqual({ value: 45_000 });
    expect(readDuration('30s', range, '--interval')).toEqual({ value: 30_000 });
    expect(readDuration('7d', range, '--interval')).toEqual({ value: 7 * 86_400_000 });
  });
  it('says what a duration is when the text is none', () => {
    expect(readDuration('soon', range, '--interval')).toEqual({
      value: 0,
      problem: '--interval: "soon" is not a duration; use a number with ms, s, m, h or d (e.g. 15s, 5m, 1h30m, 7d)',
    });
    expect(readDuration('', range, 'DDEDGE_INTERVAL').problem).toMatch(/^DDEDGE_INTERVAL: "" is not a duration;/);
    expect(readDuration('-5s', range, '--interval').problem).toMatch(/"-5s" is not a duration;/);
  });
  it('names the bound crossed, in the unit written', () => {
    expect(readDuration('10s', range, '--interval')).toEqual({
      value: 10_000,
      problem: '--interval: 10s is under the minimum of 30s',
    });
    expect(readDuration('29999ms', range, '--interval').problem).toBe(
      '--interval: 29999ms is under the minimum of 30000ms',
    );
    expect(readDuration('8d', range, '--interval')).toEqual({
      value: 8 * 86_400_000,
      problem: '--interval: 8d is over the maximum of 7d',
    });
    expect(readDuration('169h', range, '--interval').problem).toBe('--interval: 169h is over the maximum of 168h');
  });
  it('with a floor only, says so in one phrase whatever is wrong', () => {
    expect(readDuration('60s', { min: 1000 }, '--refresh')).toEqual({ value: 60_000 });
    expect(readDuration('1s', { min: 1000 }, '--refresh')).toEqual({ value: 1000 });
    expect(readDuration('soon', { min: 1000 }, 'DDEDGE_GATEWAY_REFRESH')).toEqual({
      value: 0,
      problem: 'DDEDGE_GATEWAY_REFRESH: "soon" is not a duration of 1s or more',
    });
    expect(readDuration('500ms', { min: 1000 }, '--refresh')).toEqual({
      value: 500,
      problem: '--refresh: "500ms" is not a duration of 1s or more',
    });
  });
});

describe('readCount', () => {
  it('reads decimal digits within the range, the bounds included', () => {
    expect(readCount('60', { min: 60, max: 604_800 }, '--ttl')).toEqual({ value: 60 });
    expect(readCount('604800', { min: 60, max: 604_800 }, '--ttl')).toEqual({ value: 604_800 });
    expect(readCount('007', { min: 1 }, '--quorum')).toEqual({ value: 7 });
  });
  it.each(['30', '604801', '5m', '-1', '1e3', '1.0', ' 60', '', '0x40'])(
    '"%s" is not a whole number from 60 to 604800',
    (text) => {
      expect(readCount(text, { min: 60, max: 604_800 }, '--ttl').problem).toBe(
        `--ttl: "${text}" is not a whole number from 60 to 604800`,
      );
    },
  );
  it('with a floor only, says "at least"', () => {
    expect(readCount('0', { min: 1 }, 'DDEDGE_IP_QUORUM')).toEqual({
      value: 0,
      problem: 'DDEDGE_IP_QUORUM: "0" is not a whole number of at least 1',
    });
    expect(readCount('99999', { min: 1 }, '--quorum')).toEqual({ value: 99_999 });
  });
});

describe('readList: one grammar for every list', () => {
  const list = (value: string, origin = 'DDEDGE_HOSTS') => readList([{ value, origin }]);

  it('splits on commas and line breaks, dropping blanks and empty items', () => {
    expect(listValues([{ value: ' a.example.com , b.example.com,,c.example.com,', origin: 'X' }])).toEqual([
      'a.example.com',
      'b.example.com',
      'c.example.com',
    ]);
    expect(
      listValues([{ value: 'a.example.com\nb.example.com,c.example.com\r\n\n  \nd.example.com\n', origin: 'X' }]),
    ).toEqual(['a.example.com', 'b.example.com', 'c.example.com', 'd.example.com']);
    expect(list('')).toEqual([]);
    expect(list(' , ,\n')).toEqual([]);
  });

  it('takes every value given, in order, each item with its origin', () => {
    expect(
      readList([
        { value: 'a,b', origin: '--host' },
        { value: 'c', origin: '--host' },
      ]),
    ).toEqual([
      { value: 'a', origin: '--host' },
      { value: 'b', origin: '--host' },
      { value: 'c', origin: '--host' },
    ]);
  });

  it('gives the line of each item only when the value has more than one', () => {
    expect(list('a,b')).toEqual([
      { value: 'a', origin: 'DDEDGE_HOSTS' },
      { value: 'b', origin: 'DDEDGE_HOSTS' },
    ]);
    expect(list('# team\n\nhttps://a,https://b\nhttps://c', 'DDEDGE_NOTIFY_FILE')).toEqual([
      { value: 'https://a', origin: 'DDEDGE_NOTIFY_FILE', line: 3 },
      { value: 'https://b', origin: 'DDEDGE_NOTIFY_FILE', line: 3 },
      { value: 'https://c', origin: 'DDEDGE_NOTIFY_FILE', line: 4 },
    ]);
  });

  it('a line that begins with # is a comment to its end, commas included', () => {
    expect(
      listValues([
        { value: "# the team's channel, and the pager\nhttps://a\n   # indented, too\nhttps://b", origin: 'X' },
      ]),
    ).toEqual(['https://a', 'https://b']);
  });

  it('an item that begins with # is a comment; a # inside an item is part of it', () => {
    expect(listValues([{ value: 'a.example,#b.example, #c.example,d.example', origin: 'X' }])).toEqual([
      'a.example',
      'd.example',
    ]);
    expect(listValues([{ value: 'url:https://host/#frag,dns:a#b@127.0.0.1', origin: 'X' }])).toEqual([
      'url:https://host/#frag',
      'dns:a#b@127.0.0.1',
    ]);
  });
});

describe("the agent's lists and the gateway's read alike", () => {
  const LIST = '# the hosts, one a line\na.example.com, b.example.com\n#c.example.com\nd.example.com,#e.example.com';
  const WANTED = ['a.example.com', 'b.example.com', 'd.example.com'];

  it('DDEDGE_HOSTS and DDEDGE_GATEWAY_ZONES take the same text to the same names', () => {
    const env = {
      DDEDGE_HOSTS: LIST,
      DDEDGE_GATEWAY_ZONES: LIST,
      DDEDGE_API_USER: 'u',
      DDEDGE_API_PASSWORD: 'p',
      DDEDGE_GATEWAY_KEYS_FILE: '/nonexistent/keys',
    };
    let zones: string[] = [];
    const config = loadConfig({
      flags: {},
      env,
      purpose: 'gateway',
      isRoot: false,
      readMore: (pass) => (zones = readGatewaySettings(pass).zones),
    });
    expect(config.hosts).toEqual(WANTED);
    expect(zones).toEqual(WANTED);
  });
});
