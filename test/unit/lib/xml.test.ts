import { describe, expect, it } from 'vitest';
import { parseXml, XmlError } from '../../../src/lib/xml.js';

describe('xml reader', () => {
  it('reads elements, attributes, text, entities and CDATA', () => {
    const root = parseXml(
      '<?xml version="1.0"?>\n<a x="1" y=\'&amp;\'><b>t &lt; u &#65;&#x42;</b><c/><d><![CDATA[<raw>]]></d><!-- note --></a>',
    );
    expect(root.name).toBe('a');
    expect(root.attributes).toEqual({ x: '1', y: '&' });
    expect(root.children.map((c) => c.name)).toEqual(['b', 'c', 'd']);
    expect(root.children[0]!.text).toBe('t < u AB');
    expect(root.children[2]!.text).toBe('<raw>');
  });
  it.each(['<a><b></a>', '<a>', '<a></a><b></b>', 'text<a/>', '<a>&unknown;</a>', '', '<a></b>'])(
    'refuses %j',
    (xml) => {
      expect(() => parseXml(xml)).toThrow(XmlError);
    },
  );
});
