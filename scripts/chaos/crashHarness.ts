import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPublicClient, http, type Address, type Hex } from 'viem';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { SeededRng } from '../../src/rng/SeededRng';
import { childPidsOf, payDepositStep, statusOf, quoteNativeBridge, startCliProcess, waitUntilGone, waitUntilSettled, type CliProcess, type CliReady } from '../../test/support/cliProcess';

/**
 * The crash harness (issue: kill -9 anywhere loses nothing): bridges through a simulator that is
 * killed, at seeded moments, in the three ways a user's machine kills it — SIGKILL of the whole
 * process group, SIGKILL of the node process alone, SIGKILL of the wrapper that started it (as
 * `npx` would leave it) — and started again on the same database each time. At the end every
 * request must be `success` with exactly one fill, the recipient holding exactly what the record
 * says it was paid, and no process of an earlier instance left running.
 */
export type KillKind = 'group' | 'node' | 'wrapper';
/** When in a request's life the kill comes: right after its quote (before the deposit), or after its deposit. */
export type KillPoint = 'quote' | 'deposit';

export interface CrashHarnessOptions {
  /** Where the database lives (one file for every restart). */
  dir: string;
  iterations: number;
  seed: number;
  kinds?: readonly KillKind[];
  /** The largest seeded delay between a deposit and the kill, ms. */
  maxKillDelayMs?: number;
  log?: (line: string) => void;
}

export interface CrashHarnessResult {
  kills: Array<{ kind: KillKind; point: KillPoint; afterMs: number; statusWhenKilled: string; webhooksInFlight: boolean }>;
  /** Requests whose `success` webhook never arrived (a slow receiver is attached throughout). */
  webhooksMissing: string[];
  restartMs: number[];
  requests: number;
  /** Requests that did not end as `success` with one fill matching the chain. */
  problems: string[];
  /** Processes of earlier instances still running at the end. */
  leftovers: number[];
}

type Ready = CliReady;

export async function runCrashHarness(options: CrashHarnessOptions): Promise<CrashHarnessResult> {
  const log = options.log ?? (() => undefined);
  const rng = new SeededRng(options.seed);
  const kinds = options.kinds ?? ['group', 'node', 'wrapper'];
  const result: CrashHarnessResult = { kills: [], restartMs: [], requests: 0, problems: [], leftovers: [], webhooksMissing: [] };
  // a slow webhook receiver (150 ms per delivery): kills often land while a delivery is in flight
  const received: Array<{ requestId: string; status: string }> = [];
  let inFlight = 0;
  const receiver = createServer((req, res) => {
    inFlight++;
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () =>
      setTimeout(() => {
        inFlight--;
        const payload = JSON.parse(body) as { data: { requestId: string; status: string } };
        received.push({ requestId: payload.data.requestId, status: payload.data.status });
        res.writeHead(200).end('ok');
      }, 150),
    );
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const attachWebhook = (ready: Ready) =>
    fetch(`${ready.baseUrl}/admin/api-keys/${ready.apiKey}/webhook`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ url: hookUrl }) });
  const requests: Array<{ requestId: Hex; recipient: Address }> = [];
  const earlier: number[] = [];
  const start = async (viaWrapper: boolean): Promise<CliProcess & { pids: number[] }> => {
    const started = await startCliProcess({ args: ['--chains', '1,8453', '--db', `${options.dir}/sim.db`], viaWrapper, detached: true });
    return { ...started, pids: [...new Set([started.top.pid!, started.cliPid, ...childPidsOf(started.cliPid)])] };
  };
  let instance = await start(false);
  await attachWebhook(instance.ready);
  try {
    for (let i = 0; i < options.iterations; i++) {
      const kind = kinds[i % kinds.length]!;
      // every third kill comes right after the quote; the deposit is then made on the next instance
      const point: KillPoint = i % 3 === 2 ? 'quote' : 'deposit';
      const account = instance.ready.accounts[1 + (i % 9)]!;
      const recipient = `0x${(0xc4a0_0000 + i).toString(16).padStart(40, '0')}` as Address;
      const step = await quoteNativeBridge(instance.ready, account.address, recipient);
      requests.push({ requestId: step.requestId, recipient });
      const deposit = (ready: Ready) => payDepositStep(ready, account.privateKey, step);
      if (point === 'deposit') await deposit(instance.ready);
      const afterMs = rng.int(0, options.maxKillDelayMs ?? 30);
      await new Promise((resolve) => setTimeout(resolve, afterMs));
      const statusWhenKilled = (await statusOf(instance.ready.baseUrl, step.requestId).catch(() => ({ status: 'unknown' }))).status;
      if (kind === 'group') process.kill(-instance.top.pid!, 'SIGKILL');
      else if (kind === 'node') process.kill(instance.cliPid, 'SIGKILL');
      else process.kill(instance.top.pid!, 'SIGKILL'); // the wrapper shell: intentsim must notice and stop
      result.kills.push({ kind, point, afterMs, statusWhenKilled, webhooksInFlight: inFlight > 0 });
      log(`kill ${i + 1}/${options.iterations}: ${kind} ${afterMs} ms after the ${point} (request ${statusWhenKilled}, webhooks in flight: ${inFlight})`);
      const survivors = await waitUntilGone(instance.pids, 15_000);
      earlier.push(...instance.pids);
      if (survivors.length > 0) result.problems.push(`after the ${kind} kill, still running: ${survivors.join(', ')}`);
      const started = performance.now();
      instance = await start(i + 1 < options.iterations && kinds[(i + 1) % kinds.length] === 'wrapper');
      result.restartMs.push(performance.now() - started);
      // a request quoted by the killed instance is paid on the new one (same depository, same request)
      if (point === 'quote') await deposit(instance.ready);
    }

    // every request finishes once, as it would have without the kills
    const destination = createPublicClient({ transport: http(instance.ready.chains.find((chain) => chain.id === 8453)!.rpcUrl) });
    for (const { requestId, recipient } of requests) {
      const status = await waitUntilSettled(instance.ready.baseUrl, requestId);
      result.requests++;
      if (status.status !== 'success') {
        result.problems.push(`${requestId}: ${status.status}`);
        continue;
      }
      if (status.txHashes.length !== 1) result.problems.push(`${requestId}: ${status.txHashes.length} fills`);
      const fill = await destination.getTransactionReceipt({ hash: status.txHashes[0]! }).catch(() => undefined);
      if (fill?.status !== 'success') result.problems.push(`${requestId}: its fill ${status.txHashes[0]} is not on the chain`);
      // the record says who was paid what; the chain must agree (each recipient is paid by one request only)
      const listed = (await (await fetch(`${instance.ready.baseUrl}/requests/v3?id=${requestId}`, { headers: { 'x-api-key': instance.ready.apiKey } })).json()) as {
        requests: Array<{ data: { outTxs: Array<{ type: string; data: { amount: string } }> } }>;
      };
      const paid = listed.requests[0]?.data.outTxs.filter((tx) => tx.type === 'fill').reduce((sum, tx) => sum + BigInt(tx.data.amount), 0n) ?? 0n;
      const balance = await destination.getBalance({ address: recipient });
      if (paid === 0n || balance !== paid) result.problems.push(`${requestId}: the record says ${paid} was paid to ${recipient}, the chain shows ${balance}`);
    }
    // webhooks: every request's `success` reaches the receiver (at least once: an attempt cut off by
    // a kill is sent again by the next instance)
    for (const { requestId } of requests) {
      for (let tries = 0; tries < 300 && !received.some((r) => r.requestId === requestId && r.status === 'success'); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      if (!received.some((r) => r.requestId === requestId && r.status === 'success')) result.webhooksMissing.push(requestId);
    }
    result.leftovers = earlier.filter(isProcessAlive);
    return result;
  } finally {
    receiver.closeAllConnections();
    receiver.close();
    try {
      process.kill(-instance.top.pid!, 'SIGTERM');
    } catch {
      // gone
    }
    await waitUntilGone(instance.pids, 10_000);
  }
}
