// ntfy (https://docs.ntfy.sh/publish/): the message is the body of a POST to the topic URL;
// the title and tags go in headers. `ntfy://user:pass@host/topic` sends basic auth, and
// `ntfy://:tk_token@host/topic` an access token (Authorization: Bearer). Plain text: no Markdown
// header, so ntfy renders none.
import { textOf, titleOf } from '../message.js';
import { without, type ServiceShape } from '../outgoing.js';

export const ntfy: ServiceShape = {
  problem: (endpoint) =>
    endpoint.pathname.split('/').filter(Boolean).length
      ? undefined
      : 'ntfy needs the topic in the path: ntfy://HOST/TOPIC',
  build: (endpoint, event) => {
    const user = decodeURIComponent(endpoint.username);
    const password = decodeURIComponent(endpoint.password);
    const auth = password
      ? user
        ? `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
        : `Bearer ${password}`
      : undefined;
    const tags =
      event.event === 'changed' || event.event === 'recovered' || event.event === 'test'
        ? 'globe_with_meridians'
        : 'warning';
    return {
      method: 'POST',
      url: without(endpoint),
      headers: {
        'content-type': 'text/plain; charset=utf-8',
        title: titleOf(event),
        tags,
        ...(auth ? { authorization: auth } : {}),
      },
      body: textOf(event),
    };
  },
};
