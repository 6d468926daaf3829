// `acme persist --check`: the record as the zone's authoritative servers (or each --dns-server)
// answer it now, judged as the CA would judge it (persist-verdict.ts). Each server is asked once;
// the answer is valid only when every server that answered gives a record that validates (a CA
// may ask any of them). A server that cannot be asked is said, never guessed at.
import { type Clock, systemClock } from '../lib/clock.js';
import { DdedgeError, ExitCode } from '../lib/errors.js';
import { hostPort } from '../lib/host-port.js';
import type { NameServer, TxtLookup } from './propagation.js';
import { judgePersistRecords, type PersistQuestion, type PersistVerdict } from './persist-verdict.js';

export interface PersistCheckRequest {
  name: string;
  /** The zone whose authoritative servers are asked (when `servers` is empty). */
  zone: string;
  servers: NameServer[];
  question: PersistQuestion;
  lookup: TxtLookup;
  timeoutMs: number;
  clock?: Clock;
}

export interface ServerAnswer {
  server: string;
  /** The TXT texts it answered (each record's strings joined); absent when it could not be asked. */
  records?: string[];
  verdict?: PersistVerdict;
  error?: string;
}

export interface PersistCheckReport {
  name: string;
  issuer: string;
  accountUri?: string;
  wildcard: boolean;
  /** Every server that answered gives a record that validates. */
  valid: boolean;
  servers: ServerAnswer[];
}

const showServer = (s: NameServer): string =>
  s.name ? `${s.name} (${hostPort(s.host, s.port)})` : hostPort(s.host, s.port);

/** Exit 4 (asked again later, it may answer): no server could be found or asked. */
class PersistCheckUnanswered extends DdedgeError {
  constructor(message: string) {
    super(message, ExitCode.transient);
  }
}

export async function checkPersistRecord(request: PersistCheckRequest): Promise<PersistCheckReport> {
  const controller = new AbortController();
  const cancel = (request.clock ?? systemClock).after(request.timeoutMs, () => controller.abort());
  try {
    let servers = request.servers;
    if (!servers.length) {
      try {
        servers = await request.lookup.authoritativeServers(request.zone, request.timeoutMs, controller.signal);
      } catch (error) {
        const why = error instanceof Error ? error.message : String(error);
        throw new PersistCheckUnanswered(
          `${request.name}: the name servers of ${request.zone} cannot be found (${why}); --dns-server names ` +
            'servers to ask instead',
        );
      }
      if (!servers.length)
        throw new PersistCheckUnanswered(`${request.name}: ${request.zone} has no authoritative name server`);
    }
    const answers = await Promise.all(servers.map((server) => askOne(request, server, controller.signal)));
    const answered = answers.filter((a) => a.verdict);
    if (!answered.length)
      throw new PersistCheckUnanswered(
        `${request.name}: no name server answered (${answers.map((a) => `${a.server}: ${a.error}`).join('; ')})`,
      );
    const { question } = request;
    return {
      name: request.name,
      issuer: question.issuer,
      ...(question.accountUri === undefined ? {} : { accountUri: question.accountUri }),
      wildcard: question.wildcard,
      valid: answered.every((a) => a.verdict!.valid),
      servers: answers,
    };
  } finally {
    cancel();
  }
}

async function askOne(request: PersistCheckRequest, server: NameServer, signal: AbortSignal): Promise<ServerAnswer> {
  const shown = showServer(server);
  try {
    const records = await request.lookup.txtValues(server, request.name, request.timeoutMs, signal);
    return { server: shown, records, verdict: judgePersistRecords(records, request.question) };
  } catch (error) {
    return { server: shown, error: (error as Error).message };
  }
}
