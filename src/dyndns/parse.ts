// Three answer formats, one result. Every form the spec and the field notes show is
// accepted; anything else is a MalformedAnswer, never a success.
import { familyOfAddress } from '../ip/address.js';
import { child, childrenNamed, parseXml, XmlError } from '../xml.js';
import type { DyndnsFormat, DyndnsResult } from './result.js';

export class MalformedAnswer extends Error {}

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
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const [status, ...rest] = lines;
  if (status?.toUpperCase() === 'ERROR') return { success: false, messages: rest };
  if (status?.toUpperCase() !== 'OK') throw new MalformedAnswer(`expected "OK" or "ERROR" as the first line, got "${status!.slice(0, 60)}"`);
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
    data = JSON.parse(text);
  } catch {
    throw new MalformedAnswer('the answer is not valid JSON');
  }
  if (!isObject(data) || typeof data.success !== 'boolean') throw new MalformedAnswer('the JSON answer has no boolean "success"');
  const messages = Array.isArray(data.messages) ? data.messages.map(String) : typeof data.messages === 'string' ? [data.messages] : [];
  const result: DyndnsResult = { success: data.success, messages };
  if (isObject(data.host)) {
    if (typeof data.host.value === 'string' && familyOfAddress(data.host.value)) result.address = data.host.value;
    if (typeof data.host.updated === 'boolean') result.changed = data.host.updated;
  }
  return result;
}

function parseXmlAnswer(text: string): DyndnsResult {
  let root;
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
  const result: DyndnsResult = { success: success === 'true' && errors.length === 0, messages: [...errors, ...informs] };
  const value = child(child(root, 'host'), 'value')?.text.trim();
  if (value && familyOfAddress(value)) result.address = value;
  const changed = child(child(root, 'resData'), 'request')?.attributes.success;
  if (changed === 'true' || changed === 'false') result.changed = changed === 'true';
  return result;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
