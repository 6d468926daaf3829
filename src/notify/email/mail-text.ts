// A notification as a plain-text e-mail (RFC 5322): the subject is the event's title and host,
// the body its text. Nothing from outside reaches a header unescaped: a line break there would
// add a header of the sender's choosing; a header that is not ASCII is encoded (RFC 2047).
import { type NotifyEvent, textOf, titleOf } from '../message.js';

/** Body lines are cut below SMTP's 998-character limit. */
const LINE_CHARS = 900;

export function mailText(event: NotifyEvent, from: string, to: string[], now: Date, id: string): string {
  const subject = `${titleOf(event)}${event.host ? ` (${event.host})` : ''}`;
  const body = wrapped(textOf(event));
  const ascii = /^[\x20-\x7e\r\n]*$/.test(body);
  const headers = [
    `From: <${from}>`,
    `To: ${to.map((a) => `<${a}>`).join(', ')}`,
    `Subject: ${header(subject)}`,
    `Date: ${now.toUTCString().replace(/GMT$/, '+0000')}`,
    `Message-ID: <${id}@ddedge>`,
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    `Content-Transfer-Encoding: ${ascii ? '7bit' : 'base64'}`,
  ];
  const encoded = ascii
    ? body
    : (
        Buffer.from(body, 'utf8')
          .toString('base64')
          .match(/.{1,76}/g) ?? []
      ).join('\r\n');
  return `${headers.join('\r\n')}\r\n\r\n${encoded}\r\n`;
}

/** One line, controls out, encoded when it is not ASCII. */
function header(text: string): string {
  const line = text.replace(/[\x00-\x1f\x7f]/g, ' ');
  return /^[\x20-\x7e]*$/.test(line) ? line : `=?utf-8?B?${Buffer.from(line, 'utf8').toString('base64')}?=`;
}

function wrapped(text: string): string {
  return text
    .split(/\r?\n/)
    .flatMap((line) => line.match(new RegExp(`.{1,${LINE_CHARS}}`, 'g')) ?? [''])
    .join('\r\n');
}
