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

describe('what each reading keeps and refuses, and the reason it gives', () => {
  const plain = (body: string) => parseDyndnsAnswer('plain', body);
  const json = (body: string) => parseDyndnsAnswer('json', body);
  const xml = (body: string) => parseDyndnsAnswer('xml', body);
  const refusal = (format: 'plain' | 'json' | 'xml', body: string): string => {
    try {
      parseDyndnsAnswer(format, body);
    } catch (error) {
      expect(error).toBeInstanceOf(MalformedAnswer);
      return (error as Error).message;
    }
    throw new Error(`${JSON.stringify(body)} was read`);
  };

  it('plain: a leading byte order mark and spaces around lines are not the answer; a mark inside a line is', () => {
    const updated = { success: true, address: '81.0.2.15', changed: true, messages: [] };
    expect(plain('\uFEFF OK \n  UPDATE: 81.0.2.15  ')).toStrictEqual(updated);
    expect(plain('OK\nno\uFEFFte')).toStrictEqual({ success: true, messages: ['no\uFEFFte'] });
  });

  it('plain: an address line is the whole line, with or without spaces around its colon', () => {
    expect(plain('OK\nIP : 81.0.2.15').address).toBe('81.0.2.15');
    for (const line of ['NOUPDATE: 81.0.2.15', 'UPDATE: 81.0.2.15 later', 'UPDATE: not-an-address']) {
      expect(plain(`OK\n${line}`)).toStrictEqual({ success: true, messages: [line] });
    }
  });

  it('plain: says why, quoting at most 60 characters of the first line', () => {
    expect(refusal('plain', ' \n ')).toBe('the answer is empty');
    const long = `good ${'x'.repeat(100)}`;
    expect(refusal('plain', long)).toBe(`expected "OK" or "ERROR" as the first line, got "${long.slice(0, 60)}"`);
  });

  it('json: host fields are kept only in their shape; a refusal with a host accepted the credentials', () => {
    const bare = { success: true, messages: [] };
    expect(json('{"success":true,"messages":[],"host":null}')).toStrictEqual(bare);
    expect(json('{"success":true,"messages":[],"host":{"name":" ","value":"no","updated":"yes"}}')).toStrictEqual(bare);
    expect(json('{"success":true,"messages":[],"host":{"value":7}}')).toStrictEqual(bare);
    const refused = '{"success":false,"messages":["no"],"host":{"name":"h.example.com","updated":false}}';
    expect(json(refused)).toStrictEqual({
      success: false,
      messages: ['no'],
      host: 'h.example.com',
      changed: false,
      credentialsAccepted: true,
    });
  });

  it('json: says why', () => {
    expect(refusal('json', '{"success":tru')).toBe('the answer is not valid JSON');
    expect(refusal('json', '{"success":true,"success":false}')).toBe('the key "success" appears twice in one object');
    expect(refusal('json', '{"success":"yes"}')).toBe('the JSON answer has no boolean "success"');
    expect(refusal('json', '{"success":true,"messages":[{}]}')).toBe('"messages"[0] is an object, not text');
    expect(refusal('json', '{"success":true,"messages":[],"host":"h.example.com"}')).toBe('"host" is not an object');
  });

  it('xml: texts trimmed, empty or malformed host fields left out, errors make a failure', () => {
    expect(xml('<data success="true"><host><name> </name><value>no</value></host></data>')).toStrictEqual({
      success: true,
      messages: [],
    });
    const host = '<host><name> h.example.com </name><value> 81.0.2.15 </value></host>';
    expect(xml(`<data success="true">${host}</data>`)).toStrictEqual({
      success: true,
      messages: [],
      host: 'h.example.com',
      address: '81.0.2.15',
    });
    const notes = '<errors><error> bad </error></errors><informs><inform> note </inform></informs>';
    expect(xml(`<data success="true">${notes}</data>`)).toStrictEqual({ success: false, messages: ['bad', 'note'] });
    expect(xml('<data success="true"><resData><request success="maybe"/></resData></data>')).toStrictEqual({
      success: true,
      messages: [],
    });
  });

  it('xml: a failure with resData or host accepted the credentials', () => {
    expect(xml('<data success="false"/>')).toStrictEqual({ success: false, messages: [] });
    const accepted = { success: false, messages: [], credentialsAccepted: true };
    expect(xml('<data success="false"><resData/></data>')).toStrictEqual(accepted);
    expect(xml('<data success="false"><host/></data>')).toStrictEqual(accepted);
  });

  it('xml: says why', () => {
    expect(refusal('xml', '<data success="true">')).toMatch(/^the answer is not well-formed XML \(.+\)$/);
    expect(refusal('xml', '<html success="true"/>')).toBe('the XML answer has no <data success="true|false"> root');
  });
});
