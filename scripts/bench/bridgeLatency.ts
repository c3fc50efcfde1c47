import { getJson, postJson } from '../../test/support/bridgeClient';
import { waitForReceipt } from '../../src/chains/evm/waitForReceipt';
/**
 * Bridge latency against its floor, in one simulator and one process.
 *
 * - e2e: POST /quote/v2 (native, chain 1 → 8453, EXACT_INPUT) → sign the deposit item locally
 *   (explicit nonce, gas, fees) → eth_sendRawTransaction → receipt polled every 1 ms → GET
 *   /intents/status/v3 polled every ~1 ms until `success`. Timed from the quote request's start.
 * - floor: two plain signed native transfers with receipts, sequentially (one on the origin chain,
 *   one on the destination chain — the deposit and the fill), same signing and polling.
 *
 * Iterations interleave a bridge and a floor pair so both see the same machine conditions.
 */
import {
  createPublicClient,
  createWalletClient,
  http,
  zeroAddress,
  type Address,
  type Hex,
  type PublicClient,
  type TransactionReceipt,
  type Transport,
  type WalletClient,
} from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { formatMs, positiveIntFromEnv, sleep, summarize, type Summary } from './measure';
import { fileURLToPath } from 'node:url';
import { evmChainOf } from '../../test/support/evmChainOf';

const ORIGIN_CHAIN_ID = 1;
const DESTINATION_CHAIN_ID = 8453;
const BRIDGE_AMOUNT = '10000000000000000'; // 0.01 ETH
const TRANSFER_AMOUNT = 1_000_000_000_000n; // 1e-6 ETH
const POLL_INTERVAL_MS = 1;
const RECEIPT_TIMEOUT_MS = 30_000;
const STATUS_TIMEOUT_MS = 30_000;
const WARMUP_ITERATIONS = 3;

export interface BridgeIteration {
  requestId: string;
  e2eMs: number;
  quoteMs: number;
  /** Quote response → deposit receipt seen (signing and sending included). */
  depositToReceiptMs: number;
  /** Deposit receipt seen → `success` seen on the status endpoint. */
  receiptToSuccessMs: number;
  /** From the request's events (virtual clock = wall ms, 1 ms resolution). */
  receiptToPendingMs: number;
  pendingToSubmittedMs: number;
  submittedToSuccessMs: number;
  /** Success committed → success seen by the status poll. */
  successToSeenMs: number;
  statusPolls: number;
  floorMs: number;
}

export interface BridgeResult {
  iterations: number;
  e2e: Summary;
  floor: Summary;
  /** median(e2e) / median(floor). */
  ratio: number;
  /** Medians of each iteration's phases. */
  breakdown: Omit<BridgeIteration, 'requestId' | 'e2eMs' | 'floorMs'>;
  /** One plain transfer with receipt (half a floor pair). */
  singleTransfer: Summary;
  samples: BridgeIteration[];
}

interface ChainSide {
  chainId: number;
  rpcUrl: string;
  client: PublicClient;
}

/** A local account with its nonce tracked per chain, signing without any RPC call. */
class LocalSigner {
  private readonly nonces = new Map<number, number>();
  private readonly wallets = new Map<number, WalletClient<Transport, undefined, PrivateKeyAccount>>();

  constructor(readonly account: PrivateKeyAccount) {}

  async init(sides: ChainSide[]): Promise<void> {
    for (const side of sides) {
      this.wallets.set(side.chainId, createWalletClient({ account: this.account, transport: http(side.rpcUrl) }));
      this.nonces.set(side.chainId, await side.client.getTransactionCount({ address: this.account.address, blockTag: 'pending' }));
    }
  }

  /** Signs with the next nonce; the nonce is only consumed once the node accepted the transaction. */
  async send(
    side: ChainSide,
    tx: { to: Address; data?: Hex; value: bigint; gas: bigint; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ): Promise<Hex> {
    const nonce = this.nonces.get(side.chainId);
    const wallet = this.wallets.get(side.chainId);
    if (nonce === undefined || !wallet) throw new Error(`signer not initialised for chain ${side.chainId}`);
    const serializedTransaction = await wallet.account.signTransaction({ type: 'eip1559', chainId: side.chainId, nonce, ...tx });
    const hash = await wallet.sendRawTransaction({ serializedTransaction });
    this.nonces.set(side.chainId, nonce + 1);
    return hash;
  }
}

function pollReceipt(client: PublicClient, hash: Hex): Promise<TransactionReceipt> {
  return waitForReceipt(client, hash, { intervalMs: POLL_INTERVAL_MS, timeoutMs: RECEIPT_TIMEOUT_MS });
}

export async function benchBridge(iterations = 30, progress: (line: string) => void = () => {}): Promise<BridgeResult> {
  const logLines: string[] = [];
  const sim = await startSimulator({ port: 0, log: (message, error) => logLines.push(error ? `${message}: ${String(error)}` : message) });
  try {
    return await runBench(sim, iterations, progress);
  } catch (error) {
    if (logLines.length > 0) progress(`simulator log (last lines):\n  ${logLines.slice(-10).join('\n  ')}`);
    throw error;
  } finally {
    await sim.stop();
  }
}

async function runBench(sim: RunningSimulator, iterations: number, progress: (line: string) => void): Promise<BridgeResult> {
  const sideFor = (chainId: number): ChainSide => {
    const chain = evmChainOf(sim, chainId);
    return { chainId, rpcUrl: chain.rpcUrl, client: createPublicClient({ chain: chain.viemChain(), transport: http(chain.rpcUrl) }) };
  };
  const origin = sideFor(ORIGIN_CHAIN_ID);
  const destination = sideFor(DESTINATION_CHAIN_ID);
  const bridgeUser = new LocalSigner(privateKeyToAccount(sim.accounts[1]!.privateKey as Hex));
  const floorUser = new LocalSigner(privateKeyToAccount(sim.accounts[3]!.privateKey as Hex));
  const recipient = sim.accounts[2]!.address as Address;
  const floorRecipient = sim.accounts[4]!.address as Address;
  await bridgeUser.init([origin]);
  await floorUser.init([origin, destination]);

  // Fees for the plain transfers: what the quote items carry (2 × base fee + tip), read once.
  // Base fees only fall on these near-empty automined blocks, so they stay valid.
  const feesFor = async (side: ChainSide) => {
    const block = await side.client.getBlock({ blockTag: 'latest' });
    const tip = 1_000_000_000n;
    return { maxFeePerGas: (block.baseFeePerGas ?? 1_000_000_000n) * 2n + tip, maxPriorityFeePerGas: tip };
  };
  const floorFees = new Map([
    [origin.chainId, await feesFor(origin)],
    [destination.chainId, await feesFor(destination)],
  ]);

  const transfer = async (side: ChainSide): Promise<number> => {
    const started = performance.now();
    const hash = await floorUser.send(side, { to: floorRecipient, value: TRANSFER_AMOUNT, gas: 21_000n, ...floorFees.get(side.chainId)! });
    const receipt = await pollReceipt(side.client, hash);
    if (receipt.status !== 'success') throw new Error(`transfer ${hash} reverted`);
    return performance.now() - started;
  };

  const floorPair = async (): Promise<{ pairMs: number; singles: number[] }> => {
    const started = performance.now();
    const first = await transfer(origin);
    const second = await transfer(destination);
    return { pairMs: performance.now() - started, singles: [first, second] };
  };

  const bridge = async (): Promise<Omit<BridgeIteration, 'floorMs'>> => {
    const started = performance.now();
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: bridgeUser.account.address,
      recipient,
      originChainId: ORIGIN_CHAIN_ID,
      destinationChainId: DESTINATION_CHAIN_ID,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: BRIDGE_AMOUNT,
      tradeType: 'EXACT_INPUT',
    });
    const quoted = performance.now();
    if (quote.status !== 200) throw new Error(`quote failed (${quote.status}): ${JSON.stringify(quote.body)}`);
    const deposit = (quote.body.steps as any[]).find((step) => step.id === 'deposit');
    const item = deposit?.items?.[0]?.data;
    if (!item) throw new Error(`quote has no deposit item: ${JSON.stringify(quote.body.steps)}`);
    const requestId = deposit.requestId as string;
    if (item.chainId !== ORIGIN_CHAIN_ID) throw new Error(`deposit item is for chain ${item.chainId}`);

    const hash = await bridgeUser.send(origin, {
      to: item.to as Address,
      data: item.data as Hex,
      value: BigInt(item.value),
      gas: BigInt(item.gas),
      maxFeePerGas: BigInt(item.maxFeePerGas),
      maxPriorityFeePerGas: BigInt(item.maxPriorityFeePerGas),
    });
    const receipt = await pollReceipt(origin.client, hash);
    const receiptSeen = performance.now();
    const receiptSeenWall = Date.now();
    if (receipt.status !== 'success') throw new Error(`deposit ${hash} reverted`);

    let statusPolls = 0;
    for (;;) {
      statusPolls++;
      const { status, body } = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
      if (status !== 200) throw new Error(`status failed (${status}): ${JSON.stringify(body)}`);
      if (body.status === 'success') break;
      if (body.status === 'failure' || body.status === 'refund') throw new Error(`request ${requestId} ended ${body.status}: ${JSON.stringify(body)}`);
      if (performance.now() - receiptSeen > STATUS_TIMEOUT_MS) throw new Error(`request ${requestId} still ${body.status} after ${STATUS_TIMEOUT_MS} ms`);
      await sleep(POLL_INTERVAL_MS);
    }
    const successSeen = performance.now();
    const successSeenWall = Date.now();

    const events = sim.control.requests.eventsFor(requestId);
    const at = (status: string) => {
      const event = events.find((e) => e.toStatus === status);
      if (!event) throw new Error(`request ${requestId} has no ${status} event: ${events.map((e) => e.toStatus).join(',')}`);
      return event.at;
    };
    return {
      requestId,
      e2eMs: successSeen - started,
      quoteMs: quoted - started,
      depositToReceiptMs: receiptSeen - quoted,
      receiptToSuccessMs: successSeen - receiptSeen,
      receiptToPendingMs: at('pending') - receiptSeenWall,
      pendingToSubmittedMs: at('submitted') - at('pending'),
      submittedToSuccessMs: at('success') - at('submitted'),
      successToSeenMs: successSeenWall - at('success'),
      statusPolls,
    };
  };

  for (let i = 0; i < WARMUP_ITERATIONS; i++) {
    await bridge();
    await floorPair();
  }
  progress(`  warm-up: ${WARMUP_ITERATIONS} bridges and transfer pairs done`);

  const samples: BridgeIteration[] = [];
  const singles: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const run = await bridge();
    const floor = await floorPair();
    singles.push(...floor.singles);
    samples.push({ ...run, floorMs: floor.pairMs });
    if ((i + 1) % 10 === 0 || i + 1 === iterations) {
      progress(`  ${i + 1}/${iterations}: e2e ${formatMs(run.e2eMs)}, floor ${formatMs(floor.pairMs)}`);
    }
  }

  const med = (pick: (s: BridgeIteration) => number) => summarize(samples.map(pick)).median;
  const e2e = summarize(samples.map((s) => s.e2eMs));
  const floor = summarize(samples.map((s) => s.floorMs));
  return {
    iterations,
    e2e,
    floor,
    ratio: e2e.median / floor.median,
    breakdown: {
      quoteMs: med((s) => s.quoteMs),
      depositToReceiptMs: med((s) => s.depositToReceiptMs),
      receiptToSuccessMs: med((s) => s.receiptToSuccessMs),
      receiptToPendingMs: med((s) => s.receiptToPendingMs),
      pendingToSubmittedMs: med((s) => s.pendingToSubmittedMs),
      submittedToSuccessMs: med((s) => s.submittedToSuccessMs),
      successToSeenMs: med((s) => s.successToSeenMs),
      statusPolls: med((s) => s.statusPolls),
    },
    singleTransfer: summarize(singles),
    samples,
  };
}

/** One line per phase median: where a bridge's time goes. */
export function formatBridgeBreakdown(result: BridgeResult): string {
  const b = result.breakdown;
  return [
    `  native bridge: e2e median ${formatMs(result.e2e.median)}, floor median ${formatMs(result.floor.median)}, ratio ${result.ratio.toFixed(2)}x (one transfer ${formatMs(result.singleTransfer.median)})`,
    `    quote ${formatMs(b.quoteMs)} · deposit → receipt ${formatMs(b.depositToReceiptMs)} · receipt → success seen ${formatMs(b.receiptToSuccessMs)}`,
    `    receipt → pending ${formatMs(b.receiptToPendingMs)} · pending → submitted ${formatMs(b.pendingToSubmittedMs)} · submitted → success ${formatMs(b.submittedToSuccessMs)} · success → seen ${formatMs(b.successToSeenMs)} (${b.statusPolls} status polls)`,
  ].join('\n');
}

// Standalone: `npx tsx scripts/bench/bridgeLatency.ts` (BENCH_BRIDGE_ITERATIONS, default 30).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = await benchBridge(positiveIntFromEnv('BENCH_BRIDGE_ITERATIONS', 30), (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${formatBridgeBreakdown(result)}\n`);
}
