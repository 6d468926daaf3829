// Three answer formats, one result. Every form the spec and the field notes show is
// accepted; anything else is a MalformedAnswer, never a success.
// This is the one reader of dynamic DNS answers: every field is checked for its shape here.
import { AnswerShapeError, isFields, readTextList } from '../lib/answer-shape.js';
import { familyOfAddress } from '../lib/address.js';
import { parseStrictJson } from '../lib/strict-json.js';
import { child, childrenNamed, parseXml, type XmlElement, type XmlError } from '../lib/xml.js';
import type { DyndnsFormat, DyndnsResult } from './result.js';

export class MalformedAnswer extends AnswerShapeError {}

export function parseDyndnsAnswer(format: DyndnsFormat, body: string): DyndnsResult {
  const text = body.replace(/^\uFEFF/, '');
  if (!text.trim()) throw new MalformedAnswer('the answer is empty');
  switch (format) {
    case 'json':
      return parseJson(text);
    case 'xml':
      return parseXmlAnswer(text);
    case 'plain':
      return parsePlain(text);
  }
}

/** `OK` then optionally `UPDATE: <ip>` or `IP:<ip>`; or `ERROR` then message lines. Every line is read. */
function parsePlain(text: string): DyndnsResult {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const [status, ...rest] = lines;
  if (status?.toUpperCase() === 'ERROR') return { success: false, messages: rest };
  if (status?.toUpperCase() !== 'OK')
    throw new MalformedAnswer(`expected "OK" or "ERROR" as the first line, got "${status!.slice(0, 60)}"`);
  const result: DyndnsResult = { success: true, messages: [] };
  for (const line of rest) {
    const match = /^(UPDATE|IP)\s*:\s*(\S+)$/i.exec(line);
    if (match && familyOfAddress(match[2]!)) {
      result.address = match[2];
      result.changed = true;
    } else result.messages.push(line);
  }
  if (rest.length === 0) result.changed = false;
  return result;
}

function parseJson(text: string): DyndnsResult {
  let data: unknown;
  try {
    data = parseStrictJson(text);
  } catch (error) {
    throw new MalformedAnswer(
      error instanceof AnswerShapeError && !error.message.includes('not JSON')
        ? error.message
        : 'the answer is not valid JSON',
    );
  }
  if (!isFields(data) || typeof data.success !== 'boolean')
    throw new MalformedAnswer('the JSON answer has no boolean "success"');
  const messages = readMessages(data.messages, '"messages"');
  const result: DyndnsResult = { success: data.success, messages };
  if (data.host !== undefined && data.host !== null && !isFields(data.host))
    throw new MalformedAnswer('"host" is not an object');
  if (isFields(data.host)) {
    if (typeof data.host.name === 'string' && data.host.name.trim()) result.host = data.host.name;
    if (typeof data.host.value === 'string' && familyOfAddress(data.host.value)) result.address = data.host.value;
    if (typeof data.host.updated === 'boolean') result.changed = data.host.updated;
    // "host: present when the host is valid": the user and key were accepted.
    if (!data.success) result.credentialsAccepted = true;
  }
  return result;
}

function parseXmlAnswer(text: string): DyndnsResult {
  let root: XmlElement;
  try {
    root = parseXml(text);
  } catch (error) {
    throw new MalformedAnswer(`the answer is not well-formed XML (${(error as XmlError).message})`);
  }
  const success = root.attributes.success;
  if (root.name !== 'data' || (success !== 'true' && success !== 'false')) {
    throw new MalformedAnswer('the XML answer has no <data success="true|false"> root');
  }
  const errors = childrenNamed(child(root, 'errors'), 'error').map((e) => e.text.trim());
  const informs = childrenNamed(child(root, 'informs'), 'inform').map((e) => e.text.trim());
  const result: DyndnsResult = {
    success: success === 'true' && errors.length === 0,
    messages: [...errors, ...informs],
  };
  const name = child(child(root, 'host'), 'name')?.text.trim();
  if (name) result.host = name;
  const value = child(child(root, 'host'), 'value')?.text.trim();
  if (value && familyOfAddress(value)) result.address = value;
  const changed = child(child(root, 'resData'), 'request')?.attributes.success;
  if (changed === 'true' || changed === 'false') result.changed = changed === 'true';
  // resData "present when user and key are correct"; host "present when the host is valid".
  if (!result.success && (child(root, 'resData') || child(root, 'host'))) result.credentialsAccepted = true;
  return result;
}

function readMessages(value: unknown, path: string): string[] {
  try {
    return readTextList(value, path);
  } catch (error) {
    throw new MalformedAnswer((error as Error).message);
  }
}
