// What a test needs of the machine: whether a third-party program is installed (a test that
// needs one skips without it, or fails under DDEDGE_REQUIRE_TOOLS=1, as CI runs), and a free
// loopback port for a program that must be told its port before it starts.
import { accessSync, constants, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';

/**
 * Whether a program is installed (an executable file of that name on the PATH: what a start of it
 * finds), without starting it: `certbot --version` alone took 1.3 s of CPU, once for each file
 * that asked. When it is not, tests skip unless DDEDGE_REQUIRE_TOOLS=1 (CI).
 */
export function hasProgram(name: string, debianPackage = name): boolean {
  const found = (process.env.PATH ?? '').split(delimiter).some((dir) => {
    if (!dir) return false;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return statSync(join(dir, name)).isFile();
    } catch {
      return false;
    }
  });
  if (!found && process.env.DDEDGE_REQUIRE_TOOLS && process.env.DDEDGE_REQUIRE_TOOLS !== '0')
    throw new Error(`${name} is required (DDEDGE_REQUIRE_TOOLS=1): apt-get install ${debianPackage}`);
  return found;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
