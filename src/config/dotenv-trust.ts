// What ddedge trusts of the ./.env it finds in the folder it runs in, unasked. That file is
// there by chance: run from /tmp, a shared or a cloned folder, it may be another user's, and as
// root ddedge would send the API password wherever it said, or run its hook as root. A file
// named with --env-file is the user's own choice and is not judged here.
import type { Stats } from 'node:fs';

/** Refuses a file (or the link to it) that someone other than `uid` and root could have written. */
export class UntrustedDotenv extends Error {
  constructor(
    message: string,
    /** What the user can do about it. */
    readonly remedy = 'name it with --env-file to read it anyway',
  ) {
    super(message);
  }
}

/** Throws UntrustedDotenv when `stat` (of the file, or of the link named ./.env) is not trusted. */
export function vetImplicitDotenv(stat: Stats, uid: number | undefined, what: 'file' | 'link' = 'file'): void {
  // Without users (Windows), there is no one else to tell apart.
  if (uid === undefined) return;
  if (stat.uid !== uid && stat.uid !== 0) {
    throw new UntrustedDotenv(
      `${what === 'link' ? 'is a link ' : 'is '}owned by uid ${stat.uid}, not by you (uid ${uid}) or root`,
    );
  }
  // A link's own mode means nothing (always 0777); what it points to is vetted as it is opened.
  if (what === 'file' && (stat.mode & 0o022) !== 0) {
    // A umask of 002 (Ubuntu's for users) makes every file group-writable: say how to mend it.
    throw new UntrustedDotenv(
      `can be written by its group or other users (mode 0${(stat.mode & 0o777).toString(8)})`,
      'if it is yours to trust, chmod go-w it, or name it with --env-file',
    );
  }
}

/**
 * The settings of a trusted ./.env that decide where ddedge sends requests and credentials,
 * what it runs, or whom it tells: each gets named in a warning (never its value: some, like
 * DDEDGE_PING_URL, are secrets), since a file found by chance should not decide them silently.
 * By name, so that a setting added later is covered: any URL, a hook (DDEDGE_ON_<EVENT>), a
 * notification target (…NOTIFY), where addresses are learnt (…_SOURCES), and the _FILE that
 * holds any of them.
 */
const REDIRECTING = /(_URL|^DDEDGE_ON_[A-Z]+|NOTIFY|^DDEDGE_IP6?_SOURCES)$/;

/**
 * The redirecting names `fromFile` sets that the environment does not (the file's value is the one used), in the file's
 * order.
 */
export function redirectingSettings(
  fromFile: Record<string, string>,
  env: Record<string, string | undefined>,
): string[] {
  return Object.keys(fromFile).filter(
    (name) => env[name] === undefined && REDIRECTING.test(name.replace(/_FILE$/, '')),
  );
}
