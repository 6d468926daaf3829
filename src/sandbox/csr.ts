// Real PKCS#10 certificate requests for the sandbox's ssl/csrcreate and ssl/csrdecode.
// node:crypto makes and signs keys but has no CSR API, so the few DER structures involved
// are written and read here.

// Required on first use: the sandbox starts without paying for node:crypto.
const crypto = () => process.getBuiltinModule('node:crypto');

export interface CsrSubject {
  commonName: string;
  organizationName: string;
  organizationalUnitName: string;
  countryName: string;
  stateOrProvinceName: string;
  localityName: string;
  emailAddress: string;
}

const OIDS: Record<keyof CsrSubject, string> = {
  countryName: '2.5.4.6',
  stateOrProvinceName: '2.5.4.8',
  localityName: '2.5.4.7',
  organizationName: '2.5.4.10',
  organizationalUnitName: '2.5.4.11',
  commonName: '2.5.4.3',
  emailAddress: '1.2.840.113549.1.9.1',
};
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
function oid(text: string): Buffer {
  const [a, b, ...rest] = text.split('.').map(Number);
  const bytes = [a! * 40 + b!];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}
function readOid(bytes: Buffer): string {
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (const byte of bytes.subarray(1)) {
    value = (value << 7) | (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

interface Node {
  tag: number;
  body: Buffer;
  whole: Buffer;
}
function read(buffer: Buffer, offset = 0): Node & { end: number } {
  const tag = buffer[offset];
  let len = buffer[offset + 1];
  if (tag === undefined || len === undefined) throw new Error('truncated DER');
  let start = offset + 2;
  if (len & 0x80) {
    const count = len & 0x7f;
    if (count > 4) throw new Error('DER length too long');
    len = 0;
    for (let i = 0; i < count; i++) len = (len << 8) | buffer[start + i]!;
    start += count;
  }
  const end = start + len;
  if (end > buffer.length) throw new Error('truncated DER');
  return { tag, body: buffer.subarray(start, end), whole: buffer.subarray(offset, end), end };
}
function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let offset = 0; offset < node.body.length; ) {
    const child = read(node.body, offset);
    out.push(child);
    offset = child.end;
  }
  return out;
}

const pem = (der: Buffer) =>
  `-----BEGIN CERTIFICATE REQUEST-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE REQUEST-----\n`;

/** A new 2048-bit RSA key and a CSR for the subject, signed with it. */
export function createCsr(subject: CsrSubject): { csrData: string; csrKey: string } {
  const { generateKeyPairSync, sign } = crypto();
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const name = tlv(
    0x30,
    ...(Object.keys(OIDS) as (keyof CsrSubject)[]).map((field) =>
      tlv(
        0x31,
        tlv(
          0x30,
          oid(OIDS[field]),
          tlv(field === 'countryName' ? 0x13 : field === 'emailAddress' ? 0x16 : 0x0c, Buffer.from(subject[field])),
        ),
      ),
    ),
  );
  const info = tlv(
    0x30,
    tlv(0x02, Buffer.from([0])),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    Buffer.from([0xa0, 0x00]),
  );
  const signature = sign('sha256', info, privateKey);
  const csr = tlv(
    0x30,
    info,
    tlv(0x30, oid(SHA256_WITH_RSA), Buffer.from([0x05, 0x00])),
    tlv(0x03, Buffer.from([0]), signature),
  );
  return { csrData: pem(csr), csrKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string };
}

/** The subject of a CSR, after checking its structure and its signature. Throws on anything else. */
export function decodeCsr(text: string): CsrSubject {
  const match = /-----BEGIN (?:NEW )?CERTIFICATE REQUEST-----([\s\S]+?)-----END (?:NEW )?CERTIFICATE REQUEST-----/.exec(
    text,
  );
  if (!match) throw new Error('no BEGIN/END CERTIFICATE REQUEST block');
  const { createPublicKey, verify } = crypto();
  const der = Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64');
  const [info, algorithm, signature] = children(read(der));
  if (!info || !algorithm || !signature || signature.tag !== 0x03) throw new Error('not a certification request');
  const [, subjectNode, spki] = children(info);
  if (!subjectNode || !spki) throw new Error('the request has no subject or key');
  const key = createPublicKey({ key: spki.whole, format: 'der', type: 'spki' });
  const algorithmOid = readOid(children(algorithm)[0]!.body);
  const hash =
    algorithmOid === SHA256_WITH_RSA ? 'sha256' : algorithmOid === '1.2.840.10045.4.3.2' ? 'sha256' : undefined;
  if (!hash || !verify(hash, info.whole, key, signature.body.subarray(1)))
    throw new Error('the signature does not match the request');
  const subject: Record<string, string> = {};
  const byOid = Object.fromEntries(Object.entries(OIDS).map(([k, v]) => [v, k]));
  for (const set of children(subjectNode)) {
    for (const pair of children(set)) {
      const [type, value] = children(pair);
      const field = type && byOid[readOid(type.body)];
      if (field && value) subject[field] = value.body.toString('utf8');
    }
  }
  return {
    commonName: '',
    organizationName: '',
    organizationalUnitName: '',
    countryName: '',
    stateOrProvinceName: '',
    localityName: '',
    emailAddress: '',
    ...subject,
  };
}
