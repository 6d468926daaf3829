// The floor row of `npm run bench`: the least a Node program does for ddedge's common cycle.
// The same HTTPS GETs (verified TLS, NODE_EXTRA_CA_CERTS), all at once, the answers compared
// and the address printed, as ddedge prints its result; no configuration, no cache, no
// quorum rules, no lock. Usage: node floor.cjs URL...
const https = require('node:https');
const get = (url) =>
  new Promise((resolve, reject) =>
    https
      .get(url, (res) => {
        let body = '';
        res.on('data', (d) => (body += d)).on('end', () => resolve(body.trim()));
      })
      .on('error', reject),
  );
Promise.all(process.argv.slice(2).map(get)).then((answers) => {
  if (new Set(answers).size !== 1) process.exitCode = 1;
  else console.log(answers[0]);
});
