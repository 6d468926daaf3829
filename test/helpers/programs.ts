// What a test needs of the machine: a third-party program (requireTool: the one rule for every
// test that drives one) and a free loopback port for a program that must be told its port
// before it starts.
import { accessSync, constants, statSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { delimiter, join } from 'node:path';

/** CI (.ci/run) sets DDEDGE_REQUIRE_TOOLS=1: there a missing program is a failure, never a skip. */
export const toolsRequired = (): boolean => !['', '0', undefined].includes(process.env.DDEDGE_REQUIRE_TOOLS);

/** The executable file of that name on the PATH (what a start of it by name finds), or undefined. */
function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      if (statSync(path).isFile()) return path;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/**
 * The path of an installed program, or undefined: a test that needs it skips on a developer's
 * machine (`describe.skipIf(!requireTool('dig', 'bind9-dnsutils'))`), and throws, so its file
 * fails, under DDEDGE_REQUIRE_TOOLS=1. Found without starting it (`certbot --version` alone costs
 * 1.3 s of CPU); `works`, when given, is a further check of the installed program (a plugin).
 */
export function requireTool(name: string, debianPackage = name, works?: (path: string) => boolean): string | undefined {
  const path = onPath(name);
  const usable = path !== undefined && (works?.(path) ?? true);
  if (usable) return path;
  if (toolsRequired()) {
    throw new Error(`${name} is required (DDEDGE_REQUIRE_TOOLS=1): apt-get install ${debianPackage}`);
  }
  return undefined;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
