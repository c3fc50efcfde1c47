import { execFile } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { probeBaseUrl } from '../../conformance';

/**
 * A deployment that does not answer is said in one line on stderr with exit 2 and no check
 * results (it used to be 47 failures and 18 skips in 0.0 s). Real sockets: a port that was open
 * and is closed again, and a server that accepts connections and never answers.
 */
const run = promisify(execFile);

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('conformance against a base URL that does not answer', () => {
  it('connection refused: one line on stderr, exit 2, no check results on stdout', async () => {
    const baseUrl = `http://127.0.0.1:${await closedPort()}`;
    const failed = await run(process.execPath, ['bin/intentsim.js', 'conformance', '--base-url', baseUrl], { encoding: 'utf8' }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed.code).toBe(2);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toBe(`intentsim conformance: ${baseUrl} does not answer: connection refused; no check was run\n`);
  });

  it('a server that accepts and never answers: no answer within the probe timeout', async () => {
    const sockets: Socket[] = [];
    const server = createServer((socket) => sockets.push(socket));
    const port = await listen(server);
    try {
      expect(await probeBaseUrl(`http://127.0.0.1:${port}`, 300)).toBe(`http://127.0.0.1:${port} does not answer: no answer within 0.3 s`);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('any HTTP answer counts as answering (the checks say what is wrong with it); a base URL that is no URL is said so', async () => {
    const { createServer: createHttpServer } = await import('node:http');
    const server = createHttpServer((_, response) => response.writeHead(404).end('no'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      expect(await probeBaseUrl(`http://127.0.0.1:${(server.address() as { port: number }).port}`)).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    expect(await probeBaseUrl('not a url')).toBe('not a url is not a URL');
  });
});
