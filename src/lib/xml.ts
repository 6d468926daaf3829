// A small, strict reader for the provider's XML answers: elements, attributes, text and the
// five predefined entities. No DTDs, no external entities (so no XXE), no namespaces. Input
// is already size-limited by the HTTP layer. Anything it cannot read is an XmlError.

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

export class XmlError extends Error {}

/** Deeper than any answer: refused here, so readers that recurse on the tree are safe. */
const MAX_DEPTH = 64;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#')
      return String.fromCodePoint(ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    const value = ENTITIES[ref];
    if (value === undefined) throw new XmlError(`unknown entity ${whole}`);
    return value;
  });
}

const TOKEN = new RegExp(
  [
    /<!\[CDATA\[([\s\S]*?)\]\]>/.source,
    /<!--[\s\S]*?-->/.source,
    /<\?[\s\S]*?\?>/.source,
    /<!([^>]*)>/.source,
    /<\/\s*([\w:.-]+)\s*>/.source,
    /<([\w:.-]+)((?:\s+[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.source,
    /([^<]+)/.source,
  ].join('|'),
  'g',
);
const ATTRIBUTE = /([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

export function parseXml(source: string): XmlElement {
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  let consumed = 0;
  for (const match of source.matchAll(TOKEN)) {
    if (match.index !== consumed) throw new XmlError(`unexpected character at offset ${consumed}`);
    consumed = match.index + match[0].length;
    const top = stack[stack.length - 1]!;
    const [, cdata, declaration, closing, opening, attrs, selfClosing, text] = match;
    if (cdata !== undefined) top.text += cdata;
    else if (declaration !== undefined) throw new XmlError('DOCTYPE and declarations are not accepted');
    else if (closing !== undefined) {
      if (top.name !== closing || stack.length === 1) throw new XmlError(`unexpected </${closing}>`);
      stack.pop();
    } else if (opening !== undefined) {
      // No prototype: attribute names such as `constructor` are only attributes.
      const element: XmlElement = {
        name: opening,
        attributes: Object.create(null) as Record<string, string>,
        children: [],
        text: '',
      };
      for (const a of (attrs ?? '').matchAll(ATTRIBUTE)) {
        // Well-formedness (XML 1.0, 3.1): `success="false" success="true"` is not "last one wins".
        if (Object.hasOwn(element.attributes, a[1]!))
          throw new XmlError(`attribute ${a[1]} appears twice in <${opening}>`);
        element.attributes[a[1]!] = decode(a[2] ?? a[3] ?? '');
      }
      if (!selfClosing && stack.length > MAX_DEPTH)
        throw new XmlError(`elements nested deeper than ${MAX_DEPTH} levels`);
      if (stack.length === 1 && root.children.length > 0) throw new XmlError('more than one root element');
      top.children.push(element);
      if (!selfClosing) stack.push(element);
    } else if (text !== undefined) {
      if (stack.length === 1) {
        if (text.trim()) throw new XmlError('text outside the root element');
      } else top.text += decode(text);
    }
  }
  if (consumed !== source.length) throw new XmlError(`unexpected character at offset ${consumed}`);
  if (stack.length !== 1) throw new XmlError(`<${stack[stack.length - 1]!.name}> is not closed`);
  const [document] = root.children;
  if (!document) throw new XmlError('no root element');
  return document;
}

export const child = (element: XmlElement | undefined, name: string): XmlElement | undefined =>
  element?.children.find((c) => c.name === name);
export const childrenNamed = (element: XmlElement | undefined, name: string): XmlElement[] =>
  element?.children.filter((c) => c.name === name) ?? [];
