// The floor of the default-configuration cycle: the least a Node program does to ask the two
// DNS sources ddedge asks first (an A question and a TXT question, each to its own server over
// UDP), the answers compared and the address printed. No IDs checked, no re-sends, no quorum
// rules. Usage: node floor-dns.cjs HOST:PORT HOST:PORT
const dgram = require('node:dgram');
const ask = (server, name, type) =>
  new Promise((resolve, reject) => {
    const [host, port] = server.split(':');
    const socket = dgram.createSocket('udp4');
    const labels = name.split('.').map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)]));
    const query = Buffer.concat([
      Buffer.from([0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]),
      ...labels,
      Buffer.from([0, 0, type, 0, 1]),
    ]);
    socket.on('message', (answer) => {
      socket.close();
      // The answer after the question: a name pointer, type, class, TTL, length, then the data.
      const rdata = answer.subarray(query.length + 12);
      resolve(type === 1 ? [...rdata.subarray(0, 4)].join('.') : rdata.subarray(1, 1 + rdata[0]).toString());
    });
    socket.on('error', reject);
    socket.send(query, Number(port), host);
  });
const [a, b] = process.argv.slice(2);
Promise.all([ask(a, 'myip.opendns.com', 1), ask(b, 'o-o.myaddr.l.google.com', 16)]).then((answers) => {
  if (new Set(answers).size !== 1) process.exitCode = 1;
  else console.log(answers[0]);
});
