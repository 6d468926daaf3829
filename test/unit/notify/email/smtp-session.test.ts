// The SMTP dialogue against scripted servers on 127.0.0.1: what a well-behaved server is sent,
// and that a bad one (a line that is no reply, a reply without end, a refusal) ends the delivery
// with a clear error, bounded in bytes.
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MailError, sendMail } from '../../../../src/notify/email/smtp-session.js';

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A server that answers each command line with `answer(line)` (after its greeting). */
async function scripted(answer: (line: string, socket: Socket) => string | undefined, greeting = '220 hi\r\n') {
  const heard: string[] = [];
  const server = createServer((socket) => {
    socket.write(greeting);
    let buffer = '';
    let inData = false;
    socket.on('data', (chunk) => {
      buffer += chunk.toString();
      for (let end = buffer.indexOf('\r\n'); end >= 0; end = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        heard.push(line);
        if (inData) {
          if (line === '.') {
            inData = false;
            socket.write('250 queued\r\n');
          }
          continue;
        }
        if (line === 'DATA') inData = true;
        const reply = answer(line, socket);
        if (reply !== undefined) socket.write(reply);
      }
    });
    socket.on('error', () => undefined);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, heard };
}

const b64 = (text: string) => Buffer.from(text).toString('base64');
const polite = (line: string): string | undefined => {
  if (line.startsWith('EHLO')) return '250-here\r\n250 AUTH LOGIN\r\n';
  if (line === 'AUTH LOGIN') return '334 VXNlcm5hbWU6\r\n';
  if (line === b64('me')) return '334 UGFzc3dvcmQ6\r\n';
  if (line === b64('pw')) return '235 ok\r\n';
  if (line === 'DATA') return '354 go\r\n';
  if (line === 'QUIT') return '221 bye\r\n';
  return '250 ok\r\n';
};

const request = (port: number) => ({
  host: '127.0.0.1',
  port,
  tls: 'starttls' as const,
  user: 'me',
  password: 'pw',
  from: 'f@example.com',
  to: ['a@example.com', 'b@example.com'],
  message: 'Subject: x\r\n\r\n.starts with a dot\r\nend\r\n',
  timeoutMs: 10_000,
});

describe('the SMTP dialogue', () => {
  it('sends the envelope, logs in with LOGIN when PLAIN is not offered, and dot-stuffs the message', async () => {
    const server = await scripted(polite);
    expect(await sendMail(request(server.port))).toBe('250 queued');
    expect(server.heard.slice(0, 13)).toEqual([
      'EHLO ddedge',
      'AUTH LOGIN',
      b64('me'),
      b64('pw'),
      'MAIL FROM:<f@example.com>',
      'RCPT TO:<a@example.com>',
      'RCPT TO:<b@example.com>',
      'DATA',
      'Subject: x',
      '',
      '..starts with a dot',
      'end',
      '.',
    ]);
  });

  it('refuses a recipient with the reply it got; a 5xx is not worth a retry, a 4xx is', async () => {
    const refusing = await scripted((line) => (line.startsWith('RCPT') ? '550 no such user\r\n' : polite(line)));
    const error = await sendMail(request(refusing.port)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MailError);
    expect((error as MailError).message).toMatch(/refused the recipient a@example\.com: 550 no such user/);
    expect((error as MailError).retry).toBe(false);
    const busy = await scripted(polite, '421 busy, later\r\n');
    const later = await sendMail(request(busy.port)).catch((e: unknown) => e);
    expect([(later as MailError).retry, (later as Error).message]).toEqual([true, expect.stringMatching(/421 busy/)]);
  });

  it('stops at a line that is no SMTP reply, and at a reply that never ends within its bound', async () => {
    const garbled = await scripted(polite, 'HTTP/1.1 400 Bad Request\r\n');
    await expect(sendMail(request(garbled.port))).rejects.toThrow(/sent a line that is no SMTP reply/);
    const endless = await scripted((_line, socket) => {
      socket.write(`250-${'x'.repeat(70_000)}`);
      return undefined;
    });
    await expect(sendMail(request(endless.port))).rejects.toThrow(/a reply over 65536 bytes/);
  });

  it('says when a server offers no way to log in for the user given', async () => {
    const server = await scripted((line) => (line.startsWith('EHLO') ? '250 here\r\n' : polite(line)));
    await expect(sendMail(request(server.port))).rejects.toThrow(/offers neither AUTH PLAIN nor AUTH LOGIN/);
  });
});
