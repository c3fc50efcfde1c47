import { networkInterfaces } from 'node:os';
import { createServer } from 'node:net';

/** This machine's first non-loopback IPv4 address (what another machine on its network reaches it by), if it has one. */
export function lanAddress(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
}

function bindAndRelease(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '0.0.0.0', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}

/** `count` consecutive ports free on every interface now (for `--chain-port`). */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await bindAndRelease(0);
    if (first === undefined || first + count > 65_535) continue;
    let free = true;
    for (let port = first + 1; port < first + count && free; port++) free = (await bindAndRelease(port)) !== undefined;
    if (free) return first;
  }
  throw new Error(`no ${count} consecutive free ports`);
}
