/**
 * The floor of an HTTP hot path (issue 36, part 4): a bare `node:http` server, in its own Node
 * process as the simulator's CLI is, answering every request with the same fixed body (same bytes,
 * same content-type) as the route it stands beside. autocannon drives it exactly as it drives the
 * route (`benchHotPathRows` in load.ts), in the same run, so the ratio route / floor says how far
 * the route is from what Node itself can serve on this machine.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export interface HttpFloorRow {
  bodyBytes: number;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** The server's source: a fixed JSON body of `BODY_BYTES` bytes, keep-alive as Node's default. */
const BARE_SERVER = `
const { createServer } = require('node:http');
const size = Number(process.env.BODY_BYTES);
const body = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, size - 10)) }).slice(0, size));
const server = createServer((request, response) => {
  request.resume();
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

/** A bare node:http server answering `bodyBytes` bytes, driven at each connection count for `seconds`. */
export async function benchBareHttpFloor(bodyBytes: number, connectionCounts: readonly number[], seconds: number): Promise<HttpFloorRow[]> {
  const server = spawn(process.execPath, ['-e', BARE_SERVER], { env: { ...process.env, BODY_BYTES: String(bodyBytes) }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const [chunk] = (await once(server.stdout, 'data')) as [Buffer];
    const url = `http://127.0.0.1:${Number(chunk.toString().trim())}/`;
    const rows: HttpFloorRow[] = [];
    for (const connections of connectionCounts) {
      const result = await autocannon({ url, connections, duration: seconds });
      rows.push({ bodyBytes, connections, requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99 });
    }
    return rows;
  } finally {
    server.kill('SIGTERM');
    if (server.exitCode === null && server.signalCode === null) await once(server, 'exit');
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const rows = await benchBareHttpFloor(Number(process.env.BODY_BYTES ?? 400), [1, 8], Number(process.env.BENCH_LOAD_SECONDS ?? 3));
  for (const row of rows) console.log(`bare node:http, ${row.bodyBytes} B body, ${row.connections} connections: ${row.requestsPerSecond} req/s  p50 ${row.p50Ms} ms  p99 ${row.p99Ms} ms`);
}
