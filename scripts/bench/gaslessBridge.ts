/**
 * Gasless bridge latency against its floor, in one simulator and one process (SPEC §1.6 gasless
 * swaps; docs/endpoints.md ("Gasless execution and permits")).
 *
 * - e2e: POST /quote/v2 (USDC, chain 1 → 8453, EXACT_INPUT, `usePermit: true`) → sign the step's
 *   EIP-712 typed data locally → POST /execute/permits?signature=… (the relayer sends the deposit,
 *   paying its gas) → GET /intents/status/v3 polled every ~1 ms until `success`. Timed from the
 *   quote request's start. The user sends no transaction.
 * - floor: two plain signed native transfers with receipts, sequentially (one on the origin chain,
 *   one on the destination chain — the relayed deposit and the fill), as in `bridgeLatency.ts`.
 *
 * Run alone: `npx tsx scripts/bench/gaslessBridge.ts` (BENCH_GASLESS_ITERATIONS, default 20).
 */
import { createPublicClient, http, type Address, type Hex, type PublicClient, type TypedDataDomain, type TypedDataParameter } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { fileURLToPath } from 'node:url';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { waitForReceipt } from '../../src/chains/evm/waitForReceipt';
import { getJson, postJson } from '../../test/support/bridgeClient';
import { evmChainOf } from '../../test/support/evmChainOf';
import { formatMs, positiveIntFromEnv, sleep, summarize, type Summary } from './measure';

const ORIGIN_CHAIN_ID = 1;
const DESTINATION_CHAIN_ID = 8453;
const BRIDGE_AMOUNT = '10000000'; // 10 USDC
const TRANSFER_AMOUNT = 1_000_000_000_000n;
const POLL_INTERVAL_MS = 1;
const STATUS_TIMEOUT_MS = 30_000;
const WARMUP_ITERATIONS = 3;

export interface GaslessBridgeResult {
  iterations: number;
  e2e: Summary;
  floor: Summary;
  /** median(e2e) / median(floor). */
  ratio: number;
  /** Medians: quote, sign + POST /execute/permits answered, answered → success seen. */
  breakdown: { quoteMs: number; signAndPostMs: number; postToSuccessMs: number };
}

interface SignatureItem {
  sign: { domain: TypedDataDomain; types: Record<string, TypedDataParameter[]>; primaryType: string; value: Record<string, unknown> };
  post: { endpoint: string; body: Record<string, unknown> };
}

export async function benchGaslessBridge(iterations = 20, progress: (line: string) => void = () => {}): Promise<GaslessBridgeResult> {
  const sim = await startSimulator({ port: 0, log: () => undefined });
  try {
    return await runBench(sim, iterations, progress);
  } finally {
    await sim.stop();
  }
}

async function runBench(sim: RunningSimulator, iterations: number, progress: (line: string) => void): Promise<GaslessBridgeResult> {
  const clientOf = (chainId: number): PublicClient => {
    const chain = evmChainOf(sim, chainId);
    return createPublicClient({ chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  };
  const origin = clientOf(ORIGIN_CHAIN_ID);
  const destination = clientOf(DESTINATION_CHAIN_ID);
  const user = privateKeyToAccount(sim.accounts[1]!.privateKey as Hex);
  const floorUser = privateKeyToAccount(sim.accounts[3]!.privateKey as Hex);
  const recipient = sim.accounts[2]!.address as Address;
  const originUsdc = evmChainOf(sim, ORIGIN_CHAIN_ID).contractAddresses.stablecoin;
  const destinationUsdc = evmChainOf(sim, DESTINATION_CHAIN_ID).contractAddresses.stablecoin;

  const nonces = new Map<number, number>([
    [ORIGIN_CHAIN_ID, await origin.getTransactionCount({ address: floorUser.address, blockTag: 'pending' })],
    [DESTINATION_CHAIN_ID, await destination.getTransactionCount({ address: floorUser.address, blockTag: 'pending' })],
  ]);
  const transfer = async (chainId: number, client: PublicClient, account: PrivateKeyAccount): Promise<void> => {
    const block = await client.getBlock({ blockTag: 'latest' });
    const tip = 1_000_000_000n;
    const nonce = nonces.get(chainId)!;
    const serializedTransaction = await account.signTransaction({
      type: 'eip1559',
      chainId,
      nonce,
      to: recipient,
      value: TRANSFER_AMOUNT,
      gas: 21_000n,
      maxFeePerGas: (block.baseFeePerGas ?? 1_000_000_000n) * 2n + tip,
      maxPriorityFeePerGas: tip,
    });
    const hash = await client.sendRawTransaction({ serializedTransaction });
    nonces.set(chainId, nonce + 1);
    await waitForReceipt(client, hash, { intervalMs: POLL_INTERVAL_MS });
  };
  const floorPair = async (): Promise<number> => {
    const started = performance.now();
    await transfer(ORIGIN_CHAIN_ID, origin, floorUser);
    await transfer(DESTINATION_CHAIN_ID, destination, floorUser);
    return performance.now() - started;
  };

  const bridge = async () => {
    const started = performance.now();
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      recipient,
      originChainId: ORIGIN_CHAIN_ID,
      destinationChainId: DESTINATION_CHAIN_ID,
      originCurrency: originUsdc,
      destinationCurrency: destinationUsdc,
      amount: BRIDGE_AMOUNT,
      tradeType: 'EXACT_INPUT',
      usePermit: true,
    });
    const quoted = performance.now();
    if (quote.status !== 200) throw new Error(`quote failed (${quote.status}): ${JSON.stringify(quote.body)}`);
    const step = quote.body.steps[0];
    if (step?.kind !== 'signature') throw new Error(`expected one signature step: ${JSON.stringify(quote.body.steps)}`);
    const item = step.items[0].data as SignatureItem;
    const signature = await user.signTypedData({ domain: item.sign.domain, types: item.sign.types, primaryType: item.sign.primaryType, message: item.sign.value });
    const posted = await postJson(`${sim.baseUrl}${item.post.endpoint}?signature=${signature}`, item.post.body);
    if (posted.status !== 200) throw new Error(`/execute/permits failed (${posted.status}): ${JSON.stringify(posted.body)}`);
    const answered = performance.now();
    for (;;) {
      const { body } = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${step.requestId}`);
      if (body.status === 'success') break;
      if (body.status === 'failure' || body.status === 'refund') throw new Error(`request ${step.requestId} ended ${body.status}`);
      if (performance.now() - answered > STATUS_TIMEOUT_MS) throw new Error(`request ${step.requestId} still ${body.status}`);
      await sleep(POLL_INTERVAL_MS);
    }
    const done = performance.now();
    return { e2eMs: done - started, quoteMs: quoted - started, signAndPostMs: answered - quoted, postToSuccessMs: done - answered };
  };

  for (let i = 0; i < WARMUP_ITERATIONS; i++) {
    await bridge();
    await floorPair();
  }
  const samples: Array<Awaited<ReturnType<typeof bridge>> & { floorMs: number }> = [];
  for (let i = 0; i < iterations; i++) {
    const run = await bridge();
    samples.push({ ...run, floorMs: await floorPair() });
    if ((i + 1) % 10 === 0 || i + 1 === iterations) progress(`  ${i + 1}/${iterations}: gasless e2e ${formatMs(run.e2eMs)}`);
  }
  const e2e = summarize(samples.map((s) => s.e2eMs));
  const floor = summarize(samples.map((s) => s.floorMs));
  const med = (pick: (s: (typeof samples)[number]) => number) => summarize(samples.map(pick)).median;
  return {
    iterations,
    e2e,
    floor,
    ratio: e2e.median / floor.median,
    breakdown: { quoteMs: med((s) => s.quoteMs), signAndPostMs: med((s) => s.signAndPostMs), postToSuccessMs: med((s) => s.postToSuccessMs) },
  };
}

/** The report lines of a result. */
export function gaslessBridgeLines(result: GaslessBridgeResult, targetRatio: number): string[] {
  const b = result.breakdown;
  return [
    `gasless bridge USDC 1 -> 8453, usePermit + /execute/permits (${result.iterations} iterations after warm-up, target e2e/floor <= ${targetRatio}x)`,
    `  e2e (quote -> success)  median ${formatMs(result.e2e.median)}  p90 ${formatMs(result.e2e.p90)}  min ${formatMs(result.e2e.min)}  max ${formatMs(result.e2e.max)}`,
    `  floor (2 transfers)     median ${formatMs(result.floor.median)}  p90 ${formatMs(result.floor.p90)}`,
    `  ratio e2e/floor         ${result.ratio.toFixed(2)}x   ${result.ratio <= targetRatio ? 'PASS' : 'MISS'}`,
    `  breakdown (medians)     quote ${formatMs(b.quoteMs)} | sign + POST /execute/permits ${formatMs(b.signAndPostMs)} | answered -> success ${formatMs(b.postToSuccessMs)}`,
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const iterations = positiveIntFromEnv('BENCH_GASLESS_ITERATIONS', 20);
  benchGaslessBridge(iterations, (line) => process.stderr.write(`${line}\n`)).then(
    (result) => {
      process.stdout.write(`${gaslessBridgeLines(result, 3).join('\n')}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
