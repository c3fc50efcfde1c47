/**
 * `tsx scripts/bench/hotPaths.ts`: only the request hot paths of `npm run bench`, to compare a change
 * within a minute — sequential `POST /quote/v2` latency (a library simulator), then status look-ups and
 * quotes at 1, 8 and 64 connections against `intentsim start` in its own process (the load rows).
 *
 * Options (environment): BENCH_QUOTE_COUNT (default 500; 0 skips the sequential quotes),
 * BENCH_LOAD_SECONDS (default 3), BENCH_CONNECTIONS (comma-separated, default 1,8,64),
 * BENCH_ROUTES (`status`, `quote` or both, comma-separated; default both), BENCH_CPU_PROF_DIR
 * (profile the simulator's process with `node --cpu-prof`, the profile written there when it exits).
 * Each load row has the CPU the answering process spent per request (/proc), the status rows their
 * floor (a bare node:http server answering the same bytes, `bareStatusServer.ts`) and the ratio.
 */
import { loadavg } from 'node:os';
import { benchQuoteLatency } from './quoteLatency';
import { benchHotPathRows, idleCpuMsPerSecond, statusOverFloor } from './load';
import { formatMs, positiveIntFromEnv } from './measure';
import { startCliProcess } from '../../test/support/cliProcess';

const progress = (line: string) => process.stderr.write(`${line}\n`);
const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  console.log(`load average before: ${load()}`);
  if (process.env.BENCH_QUOTE_COUNT !== '0') {
    const quotes = await benchQuoteLatency(positiveIntFromEnv('BENCH_QUOTE_COUNT', 500), progress);
    console.log(`POST /quote/v2 sequential (${quotes.count}): p50 ${formatMs(quotes.p50)}  p90 ${formatMs(quotes.summary.p90)}  p99 ${formatMs(quotes.p99)}  max ${formatMs(quotes.summary.max)}`);
  }
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const { top: child, cliPid, ready: sim } = await startCliProcess({ args: [], nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [] });
  try {
    const connections = (process.env.BENCH_CONNECTIONS ?? '1,8,64').split(',').map(Number);
    const routes = (process.env.BENCH_ROUTES ?? 'status,quote').split(',').map((route) => {
      if (route !== 'status' && route !== 'quote') throw new Error(`BENCH_ROUTES: status or quote, got ${route}`);
      return route;
    });
    console.log(`simulator idle: ${(await idleCpuMsPerSecond(cliPid)).toFixed(1)} ms CPU per second`);
    const rows = await benchHotPathRows(sim, positiveIntFromEnv('BENCH_LOAD_SECONDS', 3), progress, { connectionCounts: connections, simPid: cliPid, routes });
    for (const r of rows) console.log(`${r.route.padEnd(24)} ${String(r.connections).padStart(2)} conn  ${String(r.requestsPerSecond).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms${r.cpuMsPerRequest === undefined ? '' : `  cpu ${r.cpuMsPerRequest} ms/req`}${r.non2xx ? `  non-2xx ${r.non2xx}` : ''}`);
    for (const { connections, ratio } of statusOverFloor(rows)) console.log(`status / its floor at ${connections} connections: ${ratio.toFixed(2)}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  console.log(`load average after: ${load()}`);
}

await main();
