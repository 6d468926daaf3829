// Gotify (https://gotify.net/docs/pushmsg): POST /message with the application token, and a
// JSON {title, message, priority}. The token given as ?token= is sent in the X-Gotify-Key
// header instead, so that it stays out of proxies' access logs. The message is declared
// text/plain (https://gotify.net/docs/msgextras), so no client renders it as markdown.
import { textOf, titleOf } from '../message.js';
import { json, without, type ServiceShape } from '../outgoing.js';

export const gotify: ServiceShape = {
  problem: (endpoint) =>
    endpoint.searchParams.get('token')
      ? undefined
      : 'Gotify needs the application token: gotify://HOST/message?token=TOKEN',
  build: (endpoint, event) => {
    const url = without(endpoint, 'token');
    if (!url.pathname.endsWith('/message')) url.pathname = `${url.pathname.replace(/\/+$/, '')}/message`;
    const priority = event.event === 'changed' || event.event === 'recovered' || event.event === 'test' ? 5 : 8;
    const body = json({
      title: titleOf(event),
      message: textOf(event),
      priority,
      extras: { 'client::display': { contentType: 'text/plain' } },
    });
    return {
      method: 'POST',
      url,
      headers: { ...body.headers, 'x-gotify-key': endpoint.searchParams.get('token')! },
      body: body.body,
    };
  },
};
