// `ddedge init`: asks on a terminal (or takes from flags and variables, --non-interactive) what
// the agent needs, checks it as `ddedge update` would read it and with the provider, and only
// then writes the settings file and the secrets (src/init/), and says how to start it.
import { existsSync } from 'node:fs';
import { readSecretFile, type Env } from '../../config/env-sources.js';
import { initSettingsDir, initSettingsFile } from '../../config/init-settings.js';
import { loadConfig } from '../../config/load.js';
import { type InitAnswers, environmentOf, secretsOf, settingsOf, settingsText } from '../../init/answers.js';
import { interview } from '../../init/interview.js';
import { checkWithProvider } from '../../init/provider-check.js';
import { Interrupted, openTerminal } from '../../init/terminal.js';
import { ddedgeGroupId, refuseToReplace, writeInitFiles } from '../../init/write-files.js';
import { ConfigError } from '../../lib/errors.js';
import { createLogger } from '../../lib/log.js';
import { registerSecret } from '../../lib/redact.js';
import type { CommandContext } from '../command.js';

export async function run(context: CommandContext): Promise<number> {
  const { io, flags } = context;
  const uid = process.geteuid?.();
  const dir = initSettingsDir(io.env, uid);
  if (!dir) throw new ConfigError('init: HOME is not set, so there is no ~/.config/ddedge to write to; set HOME');
  const force = Boolean(flags.force);
  refuseToReplace([initSettingsFile(dir)], force);
  const given = givenAnswers(context);
  const answers = flags['non-interactive'] ? { hosts: '', ...given } : await askOnTerminal(given);
  vetValues(answers);
  const config = loadConfig({ flags: {}, env: environmentOf(answers, io.env), purpose: 'cycle' });
  const logger = createLogger({ level: 'warn', format: 'text', write: io.stderr });
  io.stdout(answers.apiUser ? 'asking the provider what the zone holds…\n' : '');
  for (const line of await checkWithProvider(config, logger)) io.stdout(`  ${line}\n`);
  const written = writeInitFiles(
    { dir, settingsText: settingsText(settingsOf(answers), 'ddedge init'), secrets: secretsOf(answers) },
    { force, uid, groupId: uid === 0 ? ddedgeGroupId() : undefined },
  );
  io.stdout(`wrote ${written.join(', ')}\n${nextStep(uid)}`);
  return 0;
}

/** What the flags and variables already say; secrets too, from a flag, a variable or its _FILE. */
function givenAnswers({ flags, io }: CommandContext): Partial<InitAnswers> {
  const env: Env = io.env;
  const text = (flag: string, variable: string) => (flags[flag] as string | undefined) ?? env[variable] ?? undefined;
  const secret = (flag: string, variable: string) => {
    const file = (flags[`${flag}-file`] as string | undefined) ?? env[`${variable}_FILE`];
    const value =
      text(flag, variable) ??
      (file ? readSecretFile(file, flags[`${flag}-file`] ? `--${flag}-file` : `${variable}_FILE`) : undefined);
    registerSecret(value);
    return value;
  };
  return {
    hosts: text('hosts', 'DDEDGE_HOSTS'),
    service: text('service', 'DDEDGE_SERVICE'),
    dyndnsUser: text('dyndns-user', 'DDEDGE_DYNDNS_USER'),
    dyndnsKey: secret('dyndns-key', 'DDEDGE_DYNDNS_KEY'),
    apiUser: text('api-user', 'DDEDGE_API_USER'),
    apiPassword: secret('api-password', 'DDEDGE_API_PASSWORD'),
    dyndnsUrl: text('dyndns-url', 'DDEDGE_DYNDNS_URL'),
    apiUrl: text('api-url', 'DDEDGE_API_URL'),
  };
}

async function askOnTerminal(given: Partial<InitAnswers>): Promise<InitAnswers> {
  if (!process.stdin.isTTY)
    throw new ConfigError(
      'init: standard input is not a terminal, so there is no one to ask; give the answers as flags or variables ' +
        'with --non-interactive (ddedge init --help)',
    );
  const terminal = openTerminal(process.stdin, process.stdout);
  try {
    const answers = await interview(terminal, given);
    for (const secret of [answers.dyndnsKey, answers.apiPassword]) registerSecret(secret);
    return answers;
  } catch (error) {
    if (error instanceof Interrupted) throw new ConfigError(`init: ${error.message}`);
    throw error;
  } finally {
    terminal.close();
  }
}

/** A value that would not read back as written: a line break or a quote in a host, user or URL. */
function vetValues(answers: InitAnswers): void {
  for (const [name, value] of Object.entries(settingsOf(answers)))
    if (/['\n\r\\]/.test(value))
      throw new ConfigError(`init: ${name} holds a quote, backslash or line break; nothing was written`);
}

const UNIT_FOLDERS = ['/etc/systemd/system', '/lib/systemd/system', '/usr/lib/systemd/system'];

/** The one command that starts the agent, as this machine allows. */
function nextStep(uid: number | undefined): string {
  if (uid === 0 && UNIT_FOLDERS.some((folder) => existsSync(`${folder}/ddedge.timer`)))
    return 'start it (an update every 5 minutes): systemctl enable --now ddedge.timer\n';
  return (
    'try it: ddedge update --dry-run\n' +
    'keep it running: ddedge daemon (or ddedge update every few minutes from cron or a systemd timer)\n'
  );
}
