import { describe, expect, it } from 'vitest';
import { MalformedAnswer, parseDyndnsAnswer } from '../../../src/dyndns/parse.js';

describe('plain answers', () => {
  it('reads OK with UPDATE: (the spec) and IP: (seen in the field)', () => {
    expect(parseDyndnsAnswer('plain', 'OK\nUPDATE: 81.0.2.15\n')).toEqual({
      success: true,
      address: '81.0.2.15',
      changed: true,
      messages: [],
    });
    expect(parseDyndnsAnswer('plain', 'OK\r\nIP:81.0.2.15')).toEqual({
      success: true,
      address: '81.0.2.15',
      changed: true,
      messages: [],
    });
  });
  it('reads OK alone as unchanged', () => {
    expect(parseDyndnsAnswer('plain', 'OK\n')).toEqual({ success: true, changed: false, messages: [] });
  });
  it('reads every line, not only the last: OK followed by text is still a success', () => {
    const result = parseDyndnsAnswer('plain', 'OK\nIP:81.0.2.15\nsome note');
    expect(result.success).toBe(true);
    expect(result.messages).toEqual(['some note']);
  });
  it('reads ERROR with its messages', () => {
    expect(parseDyndnsAnswer('plain', 'ERROR\nIncorrect data\n')).toEqual({
      success: false,
      messages: ['Incorrect data'],
    });
  });
  it.each(['', '   \n', '<html>502 Bad Gateway</html>', 'good 1.2.3.4'])('refuses %j as malformed', (body) => {
    expect(() => parseDyndnsAnswer('plain', body)).toThrow(MalformedAnswer);
  });
});

describe('JSON answers', () => {
  it('reads the full answer of the spec', () => {
    const body = JSON.stringify({
      success: true,
      version: '2.0',
      ts: '2026-01-01T00:00:00Z',
      user: 'u',
      messages: ['ok'],
      host: { name: 'h.example.com', value: '81.0.2.15', type: 'A', updated: true },
    });
    expect(parseDyndnsAnswer('json', body)).toEqual({
      success: true,
      host: 'h.example.com',
      address: '81.0.2.15',
      changed: true,
      messages: ['ok'],
    });
  });
  it('accepts an answer with only success and messages (host is optional)', () => {
    expect(parseDyndnsAnswer('json', '{"success":true,"messages":[]}')).toEqual({ success: true, messages: [] });
    expect(parseDyndnsAnswer('json', '{"success":false,"messages":["Incorrect data"]}')).toEqual({
      success: false,
      messages: ['Incorrect data'],
    });
  });
  it.each(['{"success":"yes"}', '[]', '{"messages":[]}', '{"success":tru', 'null', '<data success="true"/>'])(
    'refuses %j as malformed',
    (body) => {
      expect(() => parseDyndnsAnswer('json', body)).toThrow(MalformedAnswer);
    },
  );
});

describe('XML answers', () => {
  it('reads resData, host and informs', () => {
    const body =
      '<?xml version="1.0"?><data success="true" version="2.0" oper="update"><resData><user t="2026-01-01">u</user><request success="true"/></resData><host type="A"><name>h.example.com</name><value>81.0.2.15</value></host><informs><inform>IP updated</inform></informs></data>';
    expect(parseDyndnsAnswer('xml', body)).toEqual({
      success: true,
      host: 'h.example.com',
      address: '81.0.2.15',
      changed: true,
      messages: ['IP updated'],
    });
  });
  it('reads an unchanged address and a bare success', () => {
    expect(
      parseDyndnsAnswer('xml', '<data success="true"><resData><request success="false"/></resData></data>').changed,
    ).toBe(false);
    expect(parseDyndnsAnswer('xml', '<data success="true"/>')).toEqual({ success: true, messages: [] });
  });
  it('reads errors', () => {
    expect(
      parseDyndnsAnswer(
        'xml',
        '<data success="false"><errors><error>Incorrect data</error><error>second</error></errors></data>',
      ),
    ).toEqual({ success: false, messages: ['Incorrect data', 'second'] });
  });
  it.each([
    '<data success="true">',
    '<html><body>oops</body></html>',
    '<data>no attr</data>',
    'OK',
    '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><data success="true">&e;</data>',
  ])('refuses %j as malformed', (body) => expect(() => parseDyndnsAnswer('xml', body)).toThrow(MalformedAnswer));
});
