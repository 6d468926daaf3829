// The files the gateway keeps in <state dir>/gateway/ replaced by what a local user (or a
// broken disk) could put there: a link to /dev/zero, a FIFO, a huge (sparse) file. The built
// gateway, run as a user would, never hangs (a FIFO held the start forever, deaf to SIGTERM)
// and never crashes (/dev/zero read whole aborted it): it starts and says what it did with the
// file, or, for the DHCID store it cannot do without, stops with exit 2 naming the file.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { udpExchange } from '../../helpers/dns-wire.js';
import { spawnGateway, writeKeysFile } from '../../helpers/use-gateway.js';
import { aData, CLASS, outcome, rr, signed, updateMessage } from '../../helpers/update-wire.js';
import { useSandbox } from '../../helpers/use-sandbox.js';

/** Far more than the start takes on a loaded machine; past it the gateway is hung, and killed. */
const START_BOUND_MS = 60_000;
const KINDS = {
  'a link to /dev/zero': (path: string) => symlinkSync('/dev/zero', path),
  'a FIFO': (path: string) => execFileSync('mkfifo', [path]),
  // Sparse: no disk is used, and a reader that trusts it allocates 4 GiB.
  'a 4 GiB file': (path: string) => {
    writeFileSync(path, '');
    truncateSync(path, 4 * 1024 ** 3);
  },
};
type Kind = keyof typeof KINDS;

const sandbox = useSandbox({ per: 'file' });
const { file: keysFile, keys } = writeKeysFile([{ name: 'kea', rules: ['grant "kea" zonesub A DHCID;'] }]);

/** Starts the built gateway with `file` of its state made `kind`: whether it answered, its exit code once stopped (or on its own), what it said. */
async function startWith(
  file: string,
  kind: Kind,
  whileUp?: (port: number) => Promise<void>,
): Promise<{ answered: boolean; code: number | null; stderr: string }> {
  return startOn((stateDir) => KINDS[kind](join(stateDir, 'gateway', file)), whileUp);
}

/** Starts the built gateway on a state directory `prepare` made ready (its gateway/ folder exists, 0700). */
async function startOn(
  prepare: (stateDir: string) => void,
  whileUp?: (port: number) => Promise<void>,
): Promise<{ answered: boolean; code: number | null; stderr: string }> {
  const stateDir = join(tempDir('ddedge-gwstate-'), 'state');
  mkdirSync(join(stateDir, 'gateway'), { recursive: true, mode: 0o700 });
  prepare(stateDir);
  const child = spawnGateway({ apiUrl: sandbox.url, zone: 'example.com', keysFile, stateDir });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += String(d)));
  const answered = await new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), START_BOUND_MS);
    child.stderr!.on('data', () => {
      if (!/answering DNS .* on 127\.0\.0\.1:\d+/.test(stderr)) return;
      clearTimeout(timer);
      resolve(true);
    });
    child.once('close', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  try {
    if (answered && whileUp) await whileUp(Number(/answering DNS .* on 127\.0\.0\.1:(\d+)/.exec(stderr)![1]));
  } finally {
    if (child.exitCode === null) child.kill('SIGTERM');
  }
  // A gateway deaf to SIGTERM is hung: killed, and the test says so by its null code.
  const killer = setTimeout(() => child.kill('SIGKILL'), START_BOUND_MS);
  const { code } = await child.result;
  clearTimeout(killer);
  return { answered, code, stderr };
}

const kinds = Object.keys(KINDS) as Kind[];

describe('gateway state files that are not regular files of a sane size', () => {
  for (const file of ['owners.json', 'serials.json', 'replay.json']) {
    it(`${file}: the gateway starts, says so and sets the file aside`, {
      timeout: 3 * (2 * START_BOUND_MS + 5_000),
    }, async () => {
      for (const kind of kinds) {
        const { answered, code, stderr } = await startWith(file, kind);
        expect({ kind, answered, code }, stderr).toEqual({ kind, answered: true, code: 0 });
        const what =
          kind === 'a FIFO' ? 'a FIFO' : kind === 'a link to /dev/zero' ? 'a symbolic link' : `${4 * 1024 ** 3} bytes`;
        expect(stderr).toMatch(
          new RegExp(
            `gateway/${file.replace('.', '\\.')} is damaged \\(${what}[^)]*\\); set aside as \\S+/${file.replace('.', '\\.')}\\.damaged`,
          ),
        );
      }
    });
  }

  for (const file of ['journal.jsonl', 'journal.jsonl.1']) {
    it(`${file}: the gateway starts and says the journal is not read`, {
      timeout: 3 * (2 * START_BOUND_MS + 5_000),
    }, async () => {
      for (const kind of kinds) {
        const { answered, code, stderr } = await startWith(file, kind);
        expect({ kind, answered, code }, stderr).toEqual({ kind, answered: true, code: 0 });
        expect(stderr).toMatch(
          new RegExp(
            `journal: \\S+/${file.replace(/\./g, '\\.')} is .*; batches it may leave unfinished are not looked for`,
          ),
        );
      }
    });
  }

  it('journal.jsonl as a FIFO: an update is answered (not held until someone reads the FIFO), and SIGTERM still stops the gateway', {
    timeout: 2 * START_BOUND_MS + 30_000,
  }, async () => {
    let rcode: number | undefined;
    const { answered, code, stderr } = await startWith('journal.jsonl', 'a FIFO', async (port) => {
      const add = signed(
        updateMessage({ updates: [rr('fifo.example.com', 1, CLASS.IN, 300, aData('192.0.2.7'))] }),
        keys.get('kea')!,
      );
      rcode = outcome(await udpExchange(port, add, 20_000)).rcode;
    });
    expect({ answered, code }, stderr).toEqual({ answered: true, code: 0 });
    // A journal that cannot be written never stops an update (journal.ts): made, and the failure said
    // (ENXIO: a FIFO with no reader is refused at the open, which no longer waits for one).
    expect(rcode).toBe(0);
    expect(stderr).toMatch(/the journal could not be written: (ENXIO|\S+journal\.jsonl is a FIFO)/);
  });

  it('dhcid.json: the gateway stops at once with exit 2, naming the file', {
    timeout: 3 * (2 * START_BOUND_MS + 5_000),
  }, async () => {
    for (const kind of kinds) {
      const { answered, code, stderr } = await startWith('dhcid.json', kind);
      expect({ kind, answered, code }, stderr).toEqual({ kind, answered: false, code: 2 });
      expect(stderr).toMatch(/gateway\/dhcid\.json (is a FIFO|is a symbolic link|is \d+ bytes, too large)/);
    }
  });
});

describe('a state directory others may write', () => {
  it('is said at start, for the directory and its gateway/ folder', {
    timeout: 2 * START_BOUND_MS + 5_000,
  }, async () => {
    const { answered, code, stderr } = await startOn((stateDir) => {
      chmodSync(stateDir, 0o777);
      chmodSync(join(stateDir, 'gateway'), 0o777);
    });
    expect({ answered, code }, stderr).toEqual({ answered: true, code: 0 });
    expect(stderr).toMatch(
      /the state directory \S+\/state may be written by anyone \(mode 0777\): they can replace the files kept there; chmod go-w/,
    );
    expect(stderr).toMatch(/the state directory \S+\/state\/gateway may be written by anyone \(mode 0777\)/);
  });
});
