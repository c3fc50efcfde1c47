/**
 * A world revert against its floor (issue 36, part 2), in one simulator with the default six chains
 * and a few hundred stored requests:
 *
 * - revert: `sim.revert(kept)` to a snapshot taken with `keep: true`, after a little change each
 *   round (a block mined on one EVM chain, one more quote), timed alone.
 * - floor: one Anvil `evm_revert` on the same machine (its `evm_snapshot` before, untimed), through
 *   a plain JSON-RPC fetch to the chain's node.
 *
 * Rounds interleave a revert and a floor so both see the same machine conditions. The figure
 * depends on the machine (2 cores shared here); the ratio less so.
 */
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { zeroAddress } from 'viem';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { formatMs, positiveIntFromEnv, summarize, type Summary } from './measure';

export interface WorldRevertResult {
  runs: number;
  requests: number;
  chains: number;
  revert: Summary;
  /** One Anvil `evm_revert`. */
  floor: Summary;
  /** revert median / floor median. */
  ratio: number;
  /** This process's CPU time (user + system) during each revert, median ms: what the simulator itself spends. */
  revertCpuMs: number;
  /** The machine's 1-minute load average at the end (2 cores shared: above 2, every figure waits for a core). */
  loadAverage: number;
  /** Each chain's own revert (its snapshot untimed), median per chain id: where the time goes. */
  perChain: Record<string, number>;
  /** `sim.snapshot()` with those requests stored, median. */
  snapshot: Summary;
}

async function rpc(url: string, method: string, params: unknown[] = []): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

async function quote(sim: RunningSimulator, index: number): Promise<void> {
  const response = await fetch(`${sim.baseUrl}/quote/v2`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
    body: JSON.stringify({
      user: sim.accounts[index % sim.accounts.length]!.address,
      originChainId: 1,
      destinationChainId: 8453,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: String(10_000_000_000_000_000n + BigInt(index)),
      tradeType: 'EXACT_INPUT',
    }),
  });
  if (response.status !== 200) throw new Error(`quote answered ${response.status}: ${await response.text()}`);
}

export async function benchWorldRevert(options: { runs: number; requests: number }, progress: (line: string) => void = () => undefined): Promise<WorldRevertResult> {
  const sim = await startSimulator({ port: 0, env: {}, log: () => undefined });
  try {
    progress(`world revert: storing ${options.requests} requests on ${sim.chains.length} chains`);
    for (let index = 0; index < options.requests; index++) await quote(sim, index);
    const kept = await sim.snapshot({ keep: true });
    const anvilUrl = sim.chains.find((chain) => chain.id === 8453)!.rpcUrl;
    const reverts: number[] = [];
    const revertCpu: number[] = [];
    const floors: number[] = [];
    const snapshots: number[] = [];
    for (let run = 0; run < options.runs; run++) {
      await sim.control.chain(1).mine(1);
      await quote(sim, options.requests + run);
      const cpuBefore = process.cpuUsage();
      let started = performance.now();
      await sim.revert(kept);
      reverts.push(performance.now() - started);
      const cpu = process.cpuUsage(cpuBefore);
      revertCpu.push((cpu.user + cpu.system) / 1000);

      const id = (await rpc(anvilUrl, 'evm_snapshot')) as string;
      await rpc(anvilUrl, 'evm_mine');
      started = performance.now();
      await rpc(anvilUrl, 'evm_revert', [id]);
      floors.push(performance.now() - started);
    }
    for (let run = 0; run < Math.min(5, options.runs); run++) {
      const started = performance.now();
      const taken = await sim.snapshot();
      snapshots.push(performance.now() - started);
      await sim.revert(taken);
    }
    const perChain: Record<string, number> = {};
    for (const chain of sim.chains) {
      const times: number[] = [];
      for (let run = 0; run < Math.min(5, options.runs); run++) {
        const controlled = sim.control.chain(chain.id);
        const id = await controlled.snapshot();
        const started = performance.now();
        await controlled.revert(id);
        times.push(performance.now() - started);
      }
      perChain[String(chain.id)] = Math.round(summarize(times).median * 10) / 10;
    }
    const revert = summarize(reverts);
    const floor = summarize(floors);
    return {
      runs: options.runs,
      requests: options.requests,
      chains: sim.chains.length,
      revert,
      floor,
      ratio: revert.median / floor.median,
      revertCpuMs: summarize(revertCpu).median,
      loadAverage: loadavg()[0]!,
      perChain,
      snapshot: summarize(snapshots),
    };
  } finally {
    await sim.stop();
  }
}

export function worldRevertLines(result: WorldRevertResult, targetMs: number, verdict: (pass: boolean) => string): string[] {
  const perChain = Object.entries(result.perChain)
    .map(([chainId, ms]) => `${chainId} ${formatMs(ms)}`)
    .join(' · ');
  return [
    `world revert (${result.chains} chains, ${result.requests} stored requests, ${result.runs} runs; depends on the machine; target median <= ${formatMs(targetMs)})`,
    `  sim.revert(kept) median ${formatMs(result.revert.median)}  p90 ${formatMs(result.revert.p90)}, floor (one Anvil evm_revert) median ${formatMs(result.floor.median)}, ratio ${result.ratio.toFixed(1)}x   ${verdict(result.revert.median <= targetMs)}`,
    `    the simulator's CPU per revert median ${formatMs(result.revertCpuMs)} · load average ${result.loadAverage.toFixed(1)} on this machine's ${availableParallelism()} cores`,
    `    each chain's own revert: ${perChain} · sim.snapshot() median ${formatMs(result.snapshot.median)}`,
  ];
}

// Standalone: `npx tsx scripts/bench/worldRevert.ts` (BENCH_WORLD_REVERT_RUNS default 20, BENCH_WORLD_REQUESTS default 300).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchWorldRevert(
    { runs: positiveIntFromEnv('BENCH_WORLD_REVERT_RUNS', 20), requests: positiveIntFromEnv('BENCH_WORLD_REQUESTS', 300) },
    (line) => process.stdout.write(`${line}\n`),
  );
  process.stdout.write(`${worldRevertLines(result, 20, (pass) => (pass ? 'PASS' : 'MISS')).join('\n')}\n`);
  process.exit(0);
}
