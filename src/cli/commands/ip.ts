import { AddressUnknownError } from '../../lib/errors.js';
import { DetectionFailed, detectAddress, type SourceAnswer } from '../../ip/detect.js';
import type { Family } from '../../lib/address.js';
import type { CommandContext } from '../command.js';
import { printJson, setup } from '../setup.js';

interface FamilyReport {
  family: `IPv${Family}`;
  address: string | null;
  given: boolean;
  quorum: number;
  error?: string;
  sources: SourceAnswer[];
}

export async function run(context: CommandContext): Promise<number> {
  const { config, logger } = await setup(context, 'detect');
  const families: Family[] = config.ipv6 || config.ip6 ? [4, 6] : [4];
  const reports: FamilyReport[] = [];
  for (const family of families) {
    const given = family === 4 ? config.ip : config.ip6;
    const sources = family === 4 ? config.ipSources : config.ip6Sources;
    const quorum = family === 4 ? config.quorum : config.quorum6;
    if (given) {
      reports.push({ family: `IPv${family}`, address: given, given: true, quorum, sources: [] });
      continue;
    }
    if (sources[0]?.kind === 'server') {
      reports.push({
        family: `IPv${family}`,
        address: null,
        given: false,
        quorum,
        error: 'the "server" source is learnt by the provider during an update',
        sources: [],
      });
      continue;
    }
    try {
      const detection = await detectAddress({
        family,
        sources,
        quorum,
        timeoutMs: config.timeoutMs,
        allowPrivate: config.allowPrivateIp,
        logger,
        waitForAll: Boolean(context.flags.json),
      });
      reports.push({
        family: `IPv${family}`,
        address: detection.address,
        given: false,
        quorum,
        sources: detection.answers,
      });
    } catch (error) {
      if (!(error instanceof AddressUnknownError)) throw error;
      // `ip` never sends anything: an update's "nothing was sent" would only puzzle here.
      const message = error instanceof DetectionFailed ? error.reason : error.message;
      logger.error(message);
      reports.push({
        family: `IPv${family}`,
        address: null,
        given: false,
        quorum,
        error: message,
        sources: error instanceof DetectionFailed ? error.answers : [],
      });
    }
  }
  if (context.flags.json) printJson(context, { addresses: reports });
  else for (const r of reports) if (r.address) context.io.stdout(`${r.address}\n`);
  return reports.every((r) => r.address) ? 0 : 6;
}
