// node:http(s) on the agent's path. undici costs about 100 ms of start-up here (llhttp's
// WebAssembly is compiled before the first request), which is more than a whole cycle is
// allowed; Node's built-in client is already in the binary. See README "Performance".
// Loaded on the first request: a cycle answered from the cache never pays for TLS.
import { moduleOf } from '../lazy-import.js';
import type { Transport, WireRequest, WireResponse } from './transport.js';

export const nodeTransport: Transport = {
  async send(request: WireRequest): Promise<WireResponse> {
    const client = request.url.protocol === 'https:' ? await moduleOf(import('node:https')) : await moduleOf(import('node:http'));
    return new Promise((resolve, reject) => {
      const req = client.request(
        request.url,
        {
          method: request.method,
          headers: request.headers,
          family: request.family,
          signal: request.signal,
          // A fresh connection per request: a cycle makes a handful of requests to different
          // hosts, and pooled idle sockets would only delay the process exit.
          agent: false,
        },
        (res) => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res }),
      );
      // 101 Switching Protocols is never asked for; without this listener Node drops the
      // socket and the request neither answers nor fails. Report it as the status it is.
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve({ status: res.statusCode ?? 101, headers: res.headers, body: emptyBody() });
      });
      req.on('close', () => reject(new Error('the connection closed without an answer')));
      req.on('error', reject);
      req.end(request.body);
    });
  },
};

function emptyBody(): WireResponse['body'] {
  return Object.assign((async function* () {})(), { destroy() {} });
}
