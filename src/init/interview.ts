// The questions of `ddedge init` on a terminal, in the order a newcomer knows the answers: the
// hosts, then the credentials of each interface (either may be skipped, not both). What the
// flags and variables already say is offered as the answer to take with Enter.
import type { InitAnswers } from './answers.js';
import type { Terminal } from './terminal.js';

/** A question asked again at most this often when its answer cannot be used. */
const TRIES = 3;

export async function interview(terminal: Terminal, given: Partial<InitAnswers>): Promise<InitAnswers> {
  terminal.say(
    'ddedge init: what ddedge needs to keep your host names pointing at this machine. The answers are checked\n' +
      'with the provider before anything is written; Ctrl-C stops with nothing written.\n\n',
  );
  const hosts = await askUntil(
    () => terminal.ask('Host names to keep (comma-separated, e.g. home.example.com)', given.hosts),
    'give at least one host name',
    terminal,
  );
  terminal.say(
    '\nThe dynamic DNS interface updates an existing A record with a key of its own (customer area: dynamic DNS).\n',
  );
  const dyndnsUser = await terminal.ask('Dynamic DNS user (Enter to skip)', given.dyndnsUser);
  const dyndnsKey = dyndnsUser ? given.dyndnsKey || (await askSecretUntil(terminal, 'Dynamic DNS key')) : undefined;
  terminal.say(
    '\nThe registrar API also creates records, keeps AAAA ones, and lets init check the zone now ' +
      '(customer area: API access).\n',
  );
  for (let attempt = 1; ; attempt++) {
    const apiUser = await terminal.ask(`API user${dyndnsUser ? ' (Enter to skip)' : ''}`, given.apiUser);
    if (!apiUser && dyndnsUser) return { ...given, hosts, dyndnsUser, dyndnsKey };
    if (apiUser) {
      const apiPassword = given.apiPassword || (await askSecretUntil(terminal, 'API password'));
      return { ...given, hosts, dyndnsUser: dyndnsUser || undefined, dyndnsKey, apiUser, apiPassword };
    }
    if (attempt >= TRIES) return { ...given, hosts };
    terminal.say('ddedge needs the credentials of one interface at least: dynamic DNS or the API.\n');
  }
}

async function askUntil(ask: () => Promise<string>, hint: string, terminal: Terminal): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    const answer = await ask();
    if (answer || attempt >= TRIES) return answer;
    terminal.say(`${hint}\n`);
  }
}

const askSecretUntil = (terminal: Terminal, question: string): Promise<string> =>
  askUntil(() => terminal.askSecret(question), 'it cannot be empty', terminal);
