// A "whoami" DNS server on 127.0.0.1 for the build's code-cache cycle and the bench: the
// stand-in of the DNS address sources that a default configuration asks first.
import { createSocket } from 'node:dgram';

/**
 * A "whoami" DNS server on 127.0.0.1 (UDP), standing in for the DNS sources: it answers the A
 * question `myip.opendns.com` and the TXT question `o-o.myaddr.l.google.com` with `address`,
 * anything else NXDOMAIN, and counts the questions. Written on the wire by hand, as small as
 * the public servers' answers.
 */
export async function startWhoamiDns(address) {
  const dns = { server: '', queries: 0, socket: createSocket('udp4') };
  dns.socket.on('message', (query, peer) => {
    dns.queries++;
    // The question: labels from byte 12, then type and class.
    let end = 12;
    while (end < query.length && query[end] !== 0) end += query[end] + 1;
    const name = [];
    for (let i = 12; i < end; i += query[i] + 1) name.push(query.subarray(i + 1, i + 1 + query[i]).toString('latin1'));
    const type = query.readUInt16BE(end + 1);
    const question = query.subarray(12, end + 5);
    const asked = name.join('.').toLowerCase();
    const rdata =
      type === 1 && asked === 'myip.opendns.com'
        ? Buffer.from(address.split('.').map(Number))
        : type === 16 && asked === 'o-o.myaddr.l.google.com'
          ? Buffer.concat([Buffer.from([address.length]), Buffer.from(address)])
          : undefined;
    const header = Buffer.alloc(12);
    query.copy(header, 0, 0, 2);
    header.writeUInt16BE(0x8400 | (rdata ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(rdata ? 1 : 0, 6);
    const answer = rdata
      ? Buffer.concat([Buffer.from([0xc0, 12]), Buffer.from([0, type, 0, 1, 0, 0, 0, 60, 0, rdata.length]), rdata])
      : Buffer.alloc(0);
    dns.socket.send(Buffer.concat([header, question, answer]), peer.port, peer.address);
  });
  await new Promise((resolve) => dns.socket.bind(0, '127.0.0.1', resolve));
  dns.server = `127.0.0.1:${dns.socket.address().port}`;
  return dns;
}
