// The envelope as output-format=xml: root <data>, one element per field, arrays as <item>
// elements (the SDK's reader turns them back into arrays).

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const safeName = (name: string) => (/^[A-Za-z_][\w.-]*$/.test(name) ? name : `item`);

function element(name: string, value: unknown, indent: string, pretty: boolean): string {
  const open = `${pretty ? indent : ''}<${safeName(name)}>`;
  const close = `</${safeName(name)}>${pretty ? '\n' : ''}`;
  if (value === null || value === undefined) return `${pretty ? indent : ''}<${safeName(name)}/>${pretty ? '\n' : ''}`;
  if (Array.isArray(value)) {
    if (!value.length) return `${pretty ? indent : ''}<${safeName(name)}/>${pretty ? '\n' : ''}`;
    return (
      `${open}${pretty ? '\n' : ''}${value.map((v) => element('item', v, `${indent}  `, pretty)).join('')}` +
      `${pretty ? indent : ''}${close}`
    );
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (!entries.length) return `${pretty ? indent : ''}<${safeName(name)}/>${pretty ? '\n' : ''}`;
    return (
      `${open}${pretty ? '\n' : ''}${entries.map(([k, v]) => element(k, v, `${indent}  `, pretty)).join('')}` +
      `${pretty ? indent : ''}${close}`
    );
  }
  const text = typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
  return `${open}${escapeXml(text)}${close}`;
}

export function renderXmlEnvelope(envelope: Record<string, unknown>, pretty: boolean): string {
  const { success, ...rest } = envelope;
  const body = [
    element('success', success ? 1 : 0, '  ', pretty),
    ...Object.entries(rest).map(([k, v]) => element(k, v, '  ', pretty)),
  ].join('');
  return `<?xml version="1.0" encoding="UTF-8"?>${pretty ? '\n' : ''}<data>${pretty ? '\n' : ''}${body}</data>\n`;
}
