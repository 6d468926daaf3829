// `zone export --output PATH`: a regular file or nothing may be replaced; anything else is refused
// as a configuration mistake that names the path as the user gave it and what is there.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { vetExportOutput } from '../../../src/cli/zone-output.js';
import { ConfigError } from '../../../src/lib/errors.js';
import { tempDir } from '../../helpers/cli.js';

describe('vetExportOutput', () => {
  it('lets a regular file or an absent path be written', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'zone.txt'), 'old');
    expect(() => vetExportOutput(join(dir, 'zone.txt'), 'zone.txt')).not.toThrow();
    expect(() => vetExportOutput(join(dir, 'new.txt'), 'new.txt')).not.toThrow();
  });

  it('refuses a device, a folder and a link, naming the path as given and what is there', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'folder'));
    writeFileSync(join(dir, 'file'), 'x');
    symlinkSync(join(dir, 'file'), join(dir, 'link'));
    const cases: Array<[string, string, string]> = [
      ['/dev/null', '/dev/null', 'a device'],
      [join(dir, 'folder'), 'folder', 'a directory'],
      [join(dir, 'link'), './link', 'a symbolic link'],
    ];
    for (const [path, shown, kind] of cases) {
      let thrown: unknown;
      try {
        vetExportOutput(path, shown);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toContain(`"${shown}" is ${kind}, not a file`);
      expect((thrown as Error).message).toContain('--output -');
    }
  });
});
