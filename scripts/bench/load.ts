import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { zeroAddress } from 'viem';
import { REQUEST_STATUSES } from '../../src/domain/request/requestStatus';
import { openDatabase } from '../../src/store/openDatabase';
import { RequestRecordWriter } from '../../src/store/RequestRecordWriter';
import { hexId, makeRequestRecord } from '../../test/support/requestRecordFixture';
import { percentile } from './measure';
import { startCliProcess, type CliReady } from '../../test/support/cliProcess';
import { startBareStatusServer } from './bareStatusServer';

export interface LoadRow {
  route: string;
  connections: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  non2xx: number;
  /** CPU time (user + system) the answering process spent per request, when its pid was given. */
  cpuMsPerRequest?: number;
}

export interface LoadResult {
  rows: LoadRow[];
  listing: { stored: number; queries: Array<{ name: string; p50Ms: number; p99Ms: number }> };
  rss: { beforeMb: number; afterMb: number; quotes: number };
}

async function cannon(url: string, connections: number, seconds: number, options: { method?: 'GET' | 'POST'; body?: string; amount?: number } = {}): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections,
    ...(options.amount ? { amount: options.amount } : { duration: seconds }),
    method: options.method ?? 'GET',
    headers: { 'content-type': 'application/json' },
    ...(options.body ? { body: options.body } : {}),
  });
}

const row = (route: string, connections: number, result: autocannon.Result): LoadRow => ({
  route,
  connections,
  requestsPerSecond: Math.round(result.requests.average),
  p50Ms: result.latency.p50,
  p99Ms: result.latency.p99,
  non2xx: result.non2xx,
});

/** CPU time (user + system, ms) a process has used, from /proc/<pid>/stat (10 ms ticks). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime: fields 14 and 15 of the line
}

/** CPU time (ms) process `pid` spends per second while no request comes: what each row's per-request CPU includes besides the requests. */
export async function idleCpuMsPerSecond(pid: number, seconds = 2): Promise<number> {
  const before = cpuMsOf(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return (cpuMsOf(pid) - before) / seconds;
}

/** `cannon`, and the CPU the process `pid` spent on each of its requests. */
async function measuredRow(route: string, connections: number, pid: number | undefined, run: () => Promise<autocannon.Result>): Promise<LoadRow> {
  const cpuBefore = pid === undefined ? 0 : cpuMsOf(pid);
  const result = await run();
  const measured = row(route, connections, result);
  if (pid === undefined || result.requests.total === 0) return measured;
  return { ...measured, cpuMsPerRequest: Math.round(((cpuMsOf(pid) - cpuBefore) / result.requests.total) * 1000) / 1000 };
}

/** Statuses of requests not settled yet. */
const IN_FLIGHT = ['waiting', 'depositing', 'pending', 'submitted'] as const;

/** Resident memory of a process, from /proc (bytes). */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.split(/\s+/)[1] ?? 0) * 1024;
}

/** The quote the load rows send: a native bridge 1 → 8453, EXACT_INPUT. */
function nativeQuoteBody(sim: CliReady): string {
  const user = sim.accounts[0]!.address;
  return JSON.stringify({ user, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000', tradeType: 'EXACT_INPUT' });
}

/** The floor row of the status look-up: a bare `node:http` server answering the same bytes (`bareStatusServer.ts`). */
export const STATUS_FLOOR_ROUTE = 'bare node:http (floor)';

/**
 * Status look-ups and quotes at 1, 8 and 64 connections (`seconds` each) against a running
 * simulator; at each count, right after the status row, the same look-up's floor: a bare
 * `node:http` server in its own process answering the same bytes.
 */
export async function benchHotPathRows(
  sim: CliReady,
  seconds: number,
  progress: (line: string) => void,
  options: { connectionCounts?: readonly number[]; simPid?: number; routes?: ReadonlyArray<'status' | 'quote'> } = {},
): Promise<LoadRow[]> {
  const { connectionCounts = [1, 8, 64], simPid, routes = ['status', 'quote'] } = options;
  const quoteBody = nativeQuoteBody(sim);
  const first = (await (await fetch(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: quoteBody })).json()) as { steps: Array<{ requestId: string }> };
  const statusUrl = `${sim.baseUrl}/intents/status/v3?requestId=${first.steps[0]!.requestId}`;
  const floor = await startBareStatusServer(await (await fetch(statusUrl)).text());
  const rows: LoadRow[] = [];
  try {
    // a second of each first, so no row measures the JIT's warm-up
    if (routes.includes('status')) {
      await cannon(statusUrl, 8, 1);
      await cannon(floor.url, 8, 1);
    }
    if (routes.includes('quote')) await cannon(`${sim.baseUrl}/quote/v2`, 8, 1, { method: 'POST', body: quoteBody });
    for (const connections of connectionCounts) {
      if (routes.includes('status')) {
        rows.push(await measuredRow('GET /intents/status/v3', connections, simPid, () => cannon(statusUrl, connections, seconds)));
        rows.push(await measuredRow(STATUS_FLOOR_ROUTE, connections, floor.pid, () => cannon(floor.url, connections, seconds)));
        progress(`  status (and its floor) at ${connections} connections done`);
      }
      if (routes.includes('quote')) {
        rows.push(await measuredRow('POST /quote/v2', connections, simPid, () => cannon(`${sim.baseUrl}/quote/v2`, connections, seconds, { method: 'POST', body: quoteBody })));
        progress(`  quote at ${connections} connections done`);
      }
    }
  } finally {
    await floor.stop();
  }
  return rows;
}

/** Each status row's throughput over its floor's at the same connections (the issue's ≥ 0.6 at 8). */
export function statusOverFloor(rows: readonly LoadRow[]): Array<{ connections: number; ratio: number }> {
  return rows
    .filter((r) => r.route === 'GET /intents/status/v3')
    .flatMap((r) => {
      const floor = rows.find((f) => f.route === STATUS_FLOOR_ROUTE && f.connections === r.connections);
      return floor ? [{ connections: r.connections, ratio: r.requestsPerSecond / floor.requestsPerSecond }] : [];
    });
}

/**
 * Load against loopback (issue: durability and hardening, part 7): status and quote at 1 / 8 / 64
 * connections, `GET /requests/v3` pages over 100,000 stored requests (filters by settled
 * statuses match nothing among the newest 30,000), and RSS after many quotes.
 * The simulator runs as users run it (the CLI, its own process); autocannon runs here.
 */
export async function benchLoad(params: { seconds: number; storedRequests: number; quotes: number }, progress: (line: string) => void): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-load-'));
  const dbPath = join(dir, 'load.db');
  const { top: child, ready: sim } = await startCliProcess({ args: ['--db', dbPath] });
  try {
    const quoteBody = nativeQuoteBody(sim);
    const rows = await benchHotPathRows(sim, params.seconds, progress, { simPid: child.pid! });

    const rssBefore = rssOf(child.pid!);
    await cannon(`${sim.baseUrl}/quote/v2`, 8, 0, { method: 'POST', body: quoteBody, amount: params.quotes });
    const rssAfter = rssOf(child.pid!);
    progress(`  ${params.quotes} more quotes done`);

    // 100,000 stored requests, written as a long-running service would have them: the older 70%
    // in every status, the newest 30% still in flight (so settled statuses lie 30,000 down)
    const db = openDatabase(dbPath);
    const writer = new RequestRecordWriter(db);
    const base = 1_760_000_000_000;
    const settledBefore = Math.floor(params.storedRequests * 0.7);
    // in transactions of 5,000: the running simulator writes too, and waits at most 5 s for the lock
    for (let from = 0; from < params.storedRequests; from += 5000) {
      writer.transaction(() => {
        for (let n = from; n < Math.min(from + 5000, params.storedRequests); n++) {
          const at = base + n * 1000;
          const status = n < settledBefore ? REQUEST_STATUSES[n % REQUEST_STATUSES.length]! : IN_FLIGHT[n % IN_FLIGHT.length]!;
          writer.insert(makeRequestRecord({ id: hexId(0x10_000_000 + n), status, createdAt: at, updatedAt: at }));
        }
      });
    }
    db.close();
    progress(`  ${params.storedRequests} requests stored`);
    const queries: Array<{ name: string; p50Ms: number; p99Ms: number }> = [];
    for (const [name, query] of [
      ['newest page', 'limit=20'],
      ['status=success page', 'status=success&limit=20'],
      ['sortBy=amountUsd page', 'sortBy=amountUsd&limit=50'],
      ['includeTotal', 'includeTotal=true&limit=20'],
      ['filters (OR of two groups)', `filters=${encodeURIComponent(JSON.stringify([{ status: 'refund' }, { status: 'failure' }]))}&limit=20`],
      ['filters (status list)', `filters=${encodeURIComponent(JSON.stringify([{ status: ['success', 'refund'] }]))}&limit=20`],
      ['status list by amountUsd', `filters=${encodeURIComponent(JSON.stringify([{ status: ['success', 'refund'] }]))}&sortBy=amountUsd&limit=20`],
    ] as const) {
      const times: number[] = [];
      for (let i = 0; i < 60; i++) {
        if (i % 15 === 14) await new Promise((resolve) => setTimeout(resolve, 1000)); // stay inside the 20 rps per key of SPEC §8
        const started = performance.now();
        const response = await fetch(`${sim.baseUrl}/requests/v3?${query}`, { headers: { 'x-api-key': sim.apiKey } });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`GET /requests/v3?${query} answered ${response.status}`);
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      queries.push({ name, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) });
    }
    return {
      rows,
      listing: { stored: params.storedRequests, queries },
      rss: { beforeMb: Math.round(rssBefore / 2 ** 20), afterMb: Math.round(rssAfter / 2 ** 20), quotes: params.quotes },
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dir, { recursive: true, force: true });
  }
}
