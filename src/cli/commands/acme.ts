// ddedge acme: the front-ends of the DNS-01 core, one per client's calling convention.
//   present|cleanup <fqdn> <value>    lego's exec provider (EXEC_PATH), scripts, acme.sh
//   certbot-auth|certbot-cleanup      certbot's manual hooks (CERTBOT_DOMAIN, CERTBOT_VALIDATION)
//   persist DOMAIN …                  the DNS-PERSIST-01 record (acme-persist.ts)
import {
  certbotRecordName,
  checkChallengePrefix,
  describeChallenge,
  type Challenge,
} from '../../acme/challenge-name.js';
import {
  cleanupChallenge,
  presentChallenge,
  type AcmeContext,
  type CleanupReport,
  type PresentReport,
} from '../../acme/challenge.js';
import { createDnsTxtLookup } from '../../acme/dns-lookup.js';
import { parseDnsServer } from '../../dns/client/index.js';
import { apiClientFrom } from '../../config/api-client.js';
import { requireApiCredentials } from '../../config/api-credentials.js';
import { ConfigError } from '../../lib/errors.js';
import { runAction } from '../actions.js';
import { runPersist } from './acme-persist.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';
import { counted } from '../../lib/counted.js';

const ACTIONS = ['present', 'cleanup', 'certbot-auth', 'certbot-cleanup'] as const;
type Action = (typeof ACTIONS)[number];

export function run(context: CommandContext): Promise<number> {
  const actions = {
    ...Object.fromEntries(ACTIONS.map((action) => [action, (args: string[]) => runChallenge(context, action, args)])),
    persist: (args: string[]) => runPersist(context, args),
  };
  return runAction({ command: 'acme', actions }, context.positionals);
}

async function runChallenge(context: CommandContext, action: Action, args: string[]): Promise<number> {
  // Checked before any configuration is read: a wrong call changes nothing and costs nothing.
  const given = challengeArguments(action, args, context);
  checkChallengePrefix(given.name, context.flags['any-name'] === true);
  const { config, logger } = await setup(context, 'state');
  requireApiCredentials(config, 'acme changes DNS records through the registrar API');
  const challenge = describeChallenge(given.name, given.value, config.service);
  const origin = context.flags['dns-server'] ? '--dns-server' : 'DDEDGE_DNS_SERVERS';
  const servers = config.acme.dnsServers.map((text) => parseDnsServer(text, origin));
  const client = apiClientFrom(config, logger);
  const acme: AcmeContext = { config, logger, client, lookup: createDnsTxtLookup(), servers };
  try {
    const report =
      action === 'present' || action === 'certbot-auth'
        ? await presentChallenge(acme, challenge, { wait: !context.flags['no-wait'] })
        : await cleanupChallenge(acme, challenge);
    if (context.flags.json) printJson(context, report);
    else context.io.stdout(describeReport(report));
    return 0;
  } finally {
    await client.close();
  }
}

function challengeArguments(
  action: Action,
  args: string[],
  context: CommandContext,
): Pick<Challenge, 'name' | 'value'> {
  if (action === 'certbot-auth' || action === 'certbot-cleanup') {
    if (args.length)
      throw new ConfigError(`acme ${action}: takes no arguments; certbot gives CERTBOT_DOMAIN and CERTBOT_VALIDATION`);
    const domain = context.io.env.CERTBOT_DOMAIN;
    const value = context.io.env.CERTBOT_VALIDATION;
    if (!domain || !value)
      throw new ConfigError(
        `acme ${action}: CERTBOT_DOMAIN and CERTBOT_VALIDATION are not set; run it as certbot's ` +
          `--manual-${action === 'certbot-auth' ? 'auth' : 'cleanup'}-hook`,
      );
    return { name: certbotRecordName(domain), value };
  }
  // Old lego releases append the TTL; lego's RAW mode passes <domain> <token> <key authorization>.
  if (args.length === 3 && /^\d+$/.test(args[2]!)) args = args.slice(0, 2);
  if (args.length === 3)
    throw new ConfigError(
      `acme ${action}: three arguments look like lego's EXEC_MODE=RAW; unset EXEC_MODE (ddedge takes <fqdn> <value>)`,
    );
  if (args.length !== 2)
    throw new ConfigError(`acme ${action}: expected <fqdn> <value>, got ${counted(args.length, 'argument')}`);
  return { name: args[0]!, value: args[1]! };
}

function describeReport(report: PresentReport | CleanupReport): string {
  const subject = `${report.name} TXT "${report.value}"`;
  if ('visibleOn' in report) {
    const seen =
      report.waitedMs === undefined
        ? 'not waited for (--no-wait)'
        : `visible on ${counted(report.visibleOn.length, 'name server')} after ${(report.waitedMs / 1000).toFixed(1)}s`;
    return `${subject} ${report.action === 'created' ? 'added' : 'already there'}; ${seen}\n`;
  }
  return `${subject} ${report.action === 'deleted' ? 'removed' : 'absent; nothing to remove'}\n`;
}
