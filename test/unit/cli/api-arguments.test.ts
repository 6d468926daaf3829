// `ddedge api`'s arguments, read from util.parseArgs tokens: every form it takes and the message
// for each form it refuses (by position, never quoting a value); its connection settings are
// rows of the settings table, which its help and the completion script list too.
import { describe, expect, it } from 'vitest';
import { findOperation } from '../../../src/api/endpoints/index.js';
import { CONNECTION_FLAGS, OWN_FLAGS, parseApiArguments } from '../../../src/cli/api-arguments.js';
import { API_COMMAND_SETTINGS } from '../../../src/cli/command-settings.js';
import { bashCompletion } from '../../../src/cli/commands/completion.js';
import { renderHelp } from '../../../src/cli/help.js';
import { COMMANDS, findCommand } from '../../../src/cli/registry.js';
import { fileFlagOf, SETTINGS, type Setting } from '../../../src/config/settings.js';

const list = findOperation('domain', 'list')!.endpoint.params;
const create = findOperation('domain', 'create')!.endpoint.params;
const sources = {
  readFile: async (path: string) => {
    if (path === 'missing') throw Object.assign(new Error('no'), { code: 'ENOENT' });
    return `text of ${path}\n`;
  },
  readStdin: async () => 'from stdin\n',
};
const parse = (args: string[], specs = list) => parseApiArguments(args, specs, 3, sources);
const refusal = async (args: string[], specs = list) =>
  parse(args, specs).then(
    () => 'accepted',
    (error: Error) => error.message,
  );

describe('the forms ddedge api takes', () => {
  it('--name value and --name=value; a value may begin with "-", even be "-"', async () => {
    const read = await parse(['--tld', 'es', '--word=-all', '--domain', '-', '--page', '-5']);
    expect(read.params).toEqual({ tld: 'es', word: '-all', domain: '-', page: '-5' });
    expect([...read.positions]).toEqual([
      ['tld', 4],
      ['word', 6],
      ['domain', 7],
      ['page', 9],
    ]);
  });

  it('a switch alone, with a boolean word after it, or =word; -h and --help ask for help', async () => {
    expect([...(await parse(['--all', '--raw', 'yes', '--json=false'])).own]).toEqual(['all', 'raw']);
    expect([...(await parse(['--all', 'OFF', '--tld', 'es'])).own]).toEqual([]);
    expect([...(await parse(['-h'])).own]).toEqual(['help']);
    expect([...(await parse(['--help=1'])).own]).toEqual(['help']);
    expect((await parse(['--premium', '--domain', 'a.es'], create)).params).toEqual({
      premium: 'true',
      domain: 'a.es',
    });
    expect((await parse(['--premium', 'no'], create)).params).toEqual({ premium: 'no' });
  });

  it('an unknown name takes the argument after it too (validation refuses it later)', async () => {
    expect((await parse(['--bogus', '-x', '--tld', 'es'])).params).toEqual({ bogus: '-x', tld: 'es' });
  });

  it('@FILE and @- read a value, one line break removed; @@ is a literal @', async () => {
    expect((await parse(['--tld', '@es.txt', '--word=@-', '--domain', '@@x'])).params).toEqual({
      tld: 'text of es.txt',
      word: 'from stdin',
      domain: '@x',
    });
  });

  it('names that only objects have are parameters like any other', async () => {
    const read = await parse(['--toString', 'x', '--constructor', 'y']);
    expect(Object.keys(read.params)).toEqual(['toString', 'constructor']);
    expect(await refusal(['--__proto__', 'y'])).toMatch(/^api: argument 4 is not a parameter name/);
  });
});

describe('the forms it refuses, each by position', () => {
  const notAName = (position: number) =>
    `api: argument ${position} is not a parameter name; give parameters as --name value (the value follows its name; see ddedge api <module> <action> --help)`;

  it.each([
    [['es'], 4],
    [['--tld', 'es', 'x'], 6],
    [['--'], 4],
    [['-x'], 4],
    [['-hx'], 4],
    [['-'], 4],
    [['--=x'], 4],
    [['--9lives', 'x'], 4],
    [['--all', '--', 'x'], 5],
  ])('%j: argument %i is not a parameter name', async (args, position) => {
    expect(await refusal(args)).toBe(notAName(position));
  });

  it.each([
    [['--tld'], 'api: --tld (argument 4) needs a value'],
    [['--tld', '--all'], 'api: --tld (argument 4) needs a value'],
    [['--tld', '-h'], 'api: --tld (argument 4) needs a value'],
    [['--tld', '--'], 'api: --tld (argument 4) needs a value'],
    [['--api-password', '--api-user', 'u'], 'api: --api-password (argument 4) needs a value'],
    [['--bogus', '--page=1'], 'api: --bogus (argument 4) needs a value'],
    [['--all=maybe'], 'api: --all (argument 4) is a switch: give it alone, or =true / =false'],
    [['--tld', 'es', '--tld', 'com'], 'api: --tld is given twice (arguments 4 and 6)'],
    [['--tld', '@-', '--word', '@-'], 'api: --word (argument 6) and --tld both read standard input (@-); only one can'],
    [['--tld', '@missing'], 'api: --tld (argument 4): cannot read the file "missing": ENOENT'],
    [['--raww'], 'api: --raww (argument 4) is not a parameter of this operation; did you mean --raw?'],
  ])('%j: %s', async (args, message) => {
    expect(await refusal(args)).toBe(message);
  });
});

describe('the connection settings of ddedge api are rows of the settings table', () => {
  const rows = API_COMMAND_SETTINGS.map((name): Setting => SETTINGS[name]);
  const flags = rows.flatMap((s) => [s.flag, fileFlagOf(s)].filter((f): f is string => f !== undefined));

  it("its parser takes each row's flag (and a secret's file flag) as a connection setting", async () => {
    expect(flags).toContain('api-password-file');
    expect([...CONNECTION_FLAGS]).toEqual([...flags, 'env-file', 'dotenv']);
    const read = await parse(flags.flatMap((flag) => [`--${flag}`, `value of ${flag}`]));
    expect(read.connection).toEqual(Object.fromEntries(flags.map((flag) => [flag, `value of ${flag}`])));
    expect(read.params).toEqual({});
  });

  it('its help lists each row with its variable', () => {
    const help = renderHelp(findCommand('api'));
    for (const row of rows) expect(help).toMatch(new RegExp(`\\n  --${row.flag} [^]*?\\[${row.env}`));
  });

  it('the completion script offers what the parser takes', () => {
    const offered = /\*\) opts="([^"]*)"/.exec(bashCompletion(COMMANDS))?.[1]?.split(' ');
    expect(offered).toEqual([...OWN_FLAGS, ...CONNECTION_FLAGS].map((flag) => `--${flag}`));
  });
});
