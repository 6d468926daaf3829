// output-format=xml: the envelope under <data>, read into the same shape as the JSON form.
// Repeated elements become arrays; so do the children of an element whose children all share
// one name (<dns><entry/><entry/></dns>) or are named `item`.
import { parseXml, type XmlElement } from '../lib/xml.js';
import { MalformedEnvelope, toEnvelope, type Envelope } from './envelope.js';

function toValue(element: XmlElement): unknown {
  if (!element.children.length) return element.text.trim();
  const names = element.children.map((c) => c.name);
  const allSame = names.every((n) => n === names[0]);
  if (names[0] === 'item' || (allSame && names.length > 1)) return element.children.map(toValue);
  const object: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const child of element.children) {
    const value = toValue(child);
    if (Object.hasOwn(object, child.name)) {
      const existing = object[child.name];
      object[child.name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
    } else object[child.name] = value;
  }
  return object;
}

export function parseXmlEnvelope(body: string): Envelope {
  let root: XmlElement;
  try {
    root = parseXml(body);
  } catch (error) {
    throw new MalformedEnvelope(`the answer is not well-formed XML (${(error as Error).message})`);
  }
  if (root.name !== 'data') throw new MalformedEnvelope('the XML answer has no <data> root');
  const data = toValue(root);
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new MalformedEnvelope('the XML envelope is empty');
  const record = data as Record<string, unknown>;
  // An empty <responseData/> (error answers) or <messages/> read as ''.
  if (record.responseData === '') record.responseData = [];
  if (record.messages === '') record.messages = [];
  else if (typeof record.messages === 'object' && record.messages !== null && !Array.isArray(record.messages))
    record.messages = Object.values(record.messages);
  return toEnvelope(record);
}
