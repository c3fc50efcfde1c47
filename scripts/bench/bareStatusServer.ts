/**
 * The status look-up's floor: a bare `node:http` server, in its own process as the simulator is,
 * answering every request with the same bytes and headers the simulator sends for one status
 * look-up (Content-Type, Content-Length, and node's own Date / Connection / Keep-Alive). What a
 * server can do on this machine with no routing, no store and no serialisation: the load rows
 * compare `GET /intents/status/v3` with it in the same run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/** The server's program: reads the body from argv, listens on a free port, prints the port. */
const PROGRAM = `
const body = process.argv[1];
const length = Buffer.byteLength(body);
require('node:http').createServer((req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': length });
  res.end(body);
}).listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`;

export interface BareStatusServer {
  url: string;
  pid: number;
  stop: () => Promise<void>;
}

/** Starts the floor server answering `body` (the node running this script, same flags as the CLI's bin). */
export async function startBareStatusServer(body: string, nodeArgs: readonly string[] = []): Promise<BareStatusServer> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, '-e', PROGRAM, body], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the bare status server exited with ${code} before it listened`)));
    createInterface({ input: child.stdout! }).once('line', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}/intents/status/v3`,
    pid: child.pid!,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
