import { createServer } from 'node:net';

/** How many starting ports to try before giving up. */
const ATTEMPTS = 20;

/**
 * `count` consecutive ports on `host` that are free now: the first one chosen by the OS, the
 * rest checked one by one (a spawned node binds them itself a moment later).
 */
export async function findFreePortRange(host: string, count: number): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const first = await bindAndRelease(host, 0);
    if (first === undefined || first + count > 65_535) continue;
    let free = true;
    for (let port = first + 1; port < first + count && free; port++) free = (await bindAndRelease(host, port)) !== undefined;
    if (free) return first;
  }
  throw new Error(`no ${count} consecutive free ports on ${host} after ${ATTEMPTS} tries`);
}

function bindAndRelease(host: string, port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, host, () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}
