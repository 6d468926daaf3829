// Pushover (https://pushover.net/api): POST /1/messages.json with token, user, title and
// message. The URL is pushover://api.pushover.net/1/messages.json?token=APP&user=USER; both
// go in the (form-encoded) body, not the URL. Plain text: no html=1, so Pushover renders no HTML.
import { textOf, titleOf } from '../message.js';
import { without, type ServiceShape } from '../outgoing.js';

export const pushover: ServiceShape = {
  problem: (endpoint) =>
    endpoint.searchParams.get('token') && endpoint.searchParams.get('user')
      ? undefined
      : 'Pushover needs ?token=APP_TOKEN&user=USER_KEY',
  build: (endpoint, event) => {
    const url = without(endpoint, 'token', 'user');
    if (url.pathname === '/' || url.pathname === '') url.pathname = '/1/messages.json';
    const form = new URLSearchParams({
      token: endpoint.searchParams.get('token')!,
      user: endpoint.searchParams.get('user')!,
      title: titleOf(event),
      message: textOf(event),
    });
    return {
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    };
  },
};
