/**
 * The non-EVM chains (issue 13's bench):
 *
 * - SVM transfers/s on the embedded runtime: SOL transfers signed ahead, then sent one after
 *   another through the simulator's Solana JSON-RPC with `@solana/web3.js` (`sendRawTransaction`,
 *   preflight on; each is processed, and final, when the call answers).
 * - EVM → SVM bridge against its own floor: quote (USDC on 8453 → USDC on the SVM chain) → pay the deposit item →
 *   receipt → status `success`, against one EVM transfer with its receipt plus one SVM transfer.
 * - Cold start with every chain: `startSimulator()` with the default EVM chains and every non-EVM
 *   chain the fixtures know, until it resolves (target: the same 1.5 s as the EVM-only start).
 * - The exchange's restart with a journal of ~1,000 transfers (`benchLvmRestart`).
 * - SVM restart with a journal: `startSimulator()` on a `--db` whose SVM ledger journal holds
 *   `restartTransactions` transfers (each applied again at start), against a start on a fresh one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { createWalletClient, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { DEFAULT_CHAIN_IDS, LVM_CHAIN, SVM_CHAIN } from '../../fixtures/chains';
import { waitForReceipt } from '../../src/chains/evm/waitForReceipt';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { evmChainOf } from '../../test/support/evmChainOf';
import { getJson, postJson, publicClientFor, usdcOf } from '../../test/support/bridgeClient';
import { formatMs, positiveIntFromEnv, summarize, type Summary } from './measure';

const EVM = 8453;
const SVM = SVM_CHAIN.id;

export interface NonEvmChainsResult {
  svmTransfers: { count: number; perSecond: number; latency: Summary };
  evmToSvm: { iterations: number; e2e: Summary; floor: Summary; ratio: number };
  coldStartEveryChain: { chainIds: number[]; summary: Summary };
  svmRestart: SvmRestartResult;
}

export interface SvmRestartResult {
  /** Transactions in the SVM ledger journal the restart applies again. */
  transactions: number;
  /** `startSimulator()` on that database, until it resolves. */
  restart: Summary;
  /** `startSimulator()` on a fresh database (genesis only), the same chains. */
  freshStart: Summary;
}

/** Every chain the simulator can boot: what a plain `intentsim start` runs (the default EVM chains and each non-EVM chain). */
export function everyChainId(): number[] {
  return [...DEFAULT_CHAIN_IDS];
}

export async function benchNonEvmChains(params: { transfers: number; bridges: number; coldRuns: number; restartTransactions: number }, progress: (line: string) => void): Promise<NonEvmChainsResult> {
  const sim = await startSimulator({ port: 0, log: () => undefined, chains: [{ id: EVM }, { id: SVM }] });
  let svmTransfers: NonEvmChainsResult['svmTransfers'];
  let evmToSvm: NonEvmChainsResult['evmToSvm'];
  try {
    const connection = new Connection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl, 'confirmed');
    const payer = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    // signed ahead in batches (a blockhash stays valid for 150 slots, one slot per transaction), so
    // the figure is the simulator's, not web3.js's signing
    const latencies: number[] = [];
    let sendingMs = 0;
    for (let sent = 0; sent < params.transfers; ) {
      const { blockhash } = await connection.getLatestBlockhash();
      const batch = Array.from({ length: Math.min(100, params.transfers - sent) }, (_, i) => signedTransfer(payer, blockhash, 1_000 + sent + i));
      const started = performance.now();
      for (const wire of batch) {
        const one = performance.now();
        await connection.sendRawTransaction(wire);
        latencies.push(performance.now() - one);
      }
      sendingMs += performance.now() - started;
      sent += batch.length;
    }
    svmTransfers = { count: params.transfers, perSecond: params.transfers / (sendingMs / 1000), latency: summarize(latencies) };
    progress(`  SVM: ${params.transfers} transfers, ${svmTransfers.perSecond.toFixed(0)}/s`);

    evmToSvm = await benchEvmToSvm(sim, svmTransferOnce(connection, payer), params.bridges);
    progress(`  EVM → SVM: ${params.bridges} bridges, ratio ${evmToSvm.ratio.toFixed(2)}x`);
  } finally {
    await sim.stop();
  }

  const chainIds = everyChainId();
  const coldMs: number[] = [];
  for (let i = 0; i < params.coldRuns; i++) {
    const started = performance.now();
    const every = await startSimulator({ port: 0, log: () => undefined, chains: chainIds.map((id) => ({ id })) });
    coldMs.push(performance.now() - started);
    await every.stop();
    progress(`  start with chains ${chainIds.join(',')}: ${formatMs(coldMs.at(-1)!)}`);
  }
  const svmRestart = await benchSvmRestart({ transactions: params.restartTransactions, runs: params.coldRuns });
  progress(`  SVM restart with ${svmRestart.transactions} journaled transactions: ${formatMs(svmRestart.restart.median)} (fresh start ${formatMs(svmRestart.freshStart.median)})`);
  return { svmTransfers, evmToSvm, coldStartEveryChain: { chainIds, summary: summarize(coldMs) }, svmRestart };
}

/**
 * Time to restart the SVM chain on a `--db` whose ledger journal holds `transactions` transfers
 * (the simulator with the SVM chain alone, so the figure is the ledger's replay, not Anvil's).
 */
export async function benchSvmRestart(params: { transactions: number; runs: number }): Promise<SvmRestartResult> {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-svm-restart-'));
  const start = (dbPath: string) => startSimulator({ port: 0, log: () => undefined, dbPath, chains: [{ id: SVM }] });
  try {
    const dbPath = join(dir, 'journal.db');
    const filling = await start(dbPath);
    try {
      const connection = new Connection(filling.chains.find((chain) => chain.id === SVM)!.rpcUrl, 'confirmed');
      const payer = Keypair.generate();
      await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
      for (let sent = 1; sent < params.transactions; ) {
        const { blockhash } = await connection.getLatestBlockhash();
        const batch = Array.from({ length: Math.min(100, params.transactions - sent) }, (_, i) => signedTransfer(payer, blockhash, 5_000 + sent + i));
        for (const wire of batch) await connection.sendRawTransaction(wire);
        sent += batch.length;
      }
      if ((await connection.getSlot()) !== params.transactions) throw new Error(`the SVM chain is at slot ${await connection.getSlot()}, expected ${params.transactions}`);
    } finally {
      await filling.stop();
    }
    const restartMs: number[] = [];
    const freshMs: number[] = [];
    for (let run = 0; run < params.runs; run++) {
      let started = performance.now();
      const restarted = await start(dbPath);
      restartMs.push(performance.now() - started);
      const slot = await new Connection(restarted.chains.find((chain) => chain.id === SVM)!.rpcUrl).getSlot();
      await restarted.stop();
      if (slot !== params.transactions) throw new Error(`restarted at slot ${slot}, expected ${params.transactions}`);
      started = performance.now();
      const fresh = await start(join(dir, `fresh-${run}.db`));
      freshMs.push(performance.now() - started);
      await fresh.stop();
    }
    return { transactions: params.transactions, restart: summarize(restartMs), freshStart: summarize(freshMs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const SVM_TRANSFER_RECIPIENT = Keypair.generate().publicKey;

/** A signed SOL transfer (a distinct amount gives a distinct signature), as wire bytes. */
function signedTransfer(payer: Keypair, blockhash: string, extraLamports: number): Uint8Array {
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: SVM_TRANSFER_RECIPIENT, lamports: LAMPORTS_PER_SOL / 1000 + extraLamports })],
  }).compileToV0Message();
  const transaction = new VersionedTransaction(message);
  transaction.sign([payer]);
  return transaction.serialize();
}

/** One SVM transfer as a wallet makes it (blockhash, sign, send; processed when the call answers); resolves with its ms. */
function svmTransferOnce(connection: Connection, payer: Keypair): (extraLamports: number) => Promise<number> {
  return async (extraLamports) => {
    const started = performance.now();
    const { blockhash } = await connection.getLatestBlockhash();
    await connection.sendRawTransaction(signedTransfer(payer, blockhash, extraLamports));
    return performance.now() - started;
  };
}

async function benchEvmToSvm(sim: RunningSimulator, svmTransfer: (lamports: number) => Promise<number>, iterations: number): Promise<NonEvmChainsResult['evmToSvm']> {
  const chain = evmChainOf(sim, EVM);
  const client = publicClientFor(sim, EVM);
  const user = privateKeyToAccount(sim.accounts[6]!.privateKey as Hex);
  const floorUser = privateKeyToAccount(sim.accounts[7]!.privateKey as Hex);
  const wallet = createWalletClient({ account: user, chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  const floorWallet = createWalletClient({ account: floorUser, chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  const recipient = Keypair.generate().publicKey.toBase58();
  const [evmUsdc, svmUsdc] = await Promise.all([usdcOf(sim.baseUrl, EVM), usdcOf(sim.baseUrl, SVM)]);

  const e2e: number[] = [];
  const floor: number[] = [];
  for (let i = -2; i < iterations; i++) {
    const bridgeStarted = performance.now();
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      recipient,
      originChainId: EVM,
      destinationChainId: SVM,
      originCurrency: evmUsdc,
      destinationCurrency: svmUsdc,
      amount: '10000000',
      tradeType: 'EXACT_INPUT',
    });
    if (quote.status !== 200) throw new Error(`EVM → SVM quote failed (${quote.status}): ${JSON.stringify(quote.body)}`);
    // the first quote also asks for an approval; every item is sent and waited for, as a wallet does
    for (const { items } of quote.body.steps as Array<{ items: Array<{ data: { to: Address; data: Hex; value: string } }> }>) {
      for (const { data: item } of items) {
        const hash = await wallet.sendTransaction({ to: item.to, data: item.data, value: BigInt(item.value) });
        await waitForReceipt(client, hash, { intervalMs: 1, timeoutMs: 30_000 });
      }
    }
    const step = quote.body.steps.at(-1);
    for (;;) {
      const { body } = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${step.requestId}`);
      if (body.status === 'success') break;
      if (body.status === 'failure' || body.status === 'refund') throw new Error(`EVM → SVM bridge ended ${body.status}`);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const bridgeMs = performance.now() - bridgeStarted;

    const floorStarted = performance.now();
    const transfer = await floorWallet.sendTransaction({ to: sim.accounts[8]!.address as Address, value: 1_000_000_000_000n });
    await waitForReceipt(client, transfer, { intervalMs: 1, timeoutMs: 30_000 });
    await svmTransfer(2_000_000 + i);
    const floorMs = performance.now() - floorStarted;
    if (i >= 0) {
      e2e.push(bridgeMs);
      floor.push(floorMs);
    }
  }
  const e2eSummary = summarize(e2e);
  const floorSummary = summarize(floor);
  return { iterations, e2e: e2eSummary, floor: floorSummary, ratio: e2eSummary.median / floorSummary.median };
}

export interface LvmRestartResult {
  /** Transfers in the exchange's journal when it restarts. */
  transfers: number;
  /** `startSimulator()` on the database with that journal (the exchange replays it). */
  restart: Summary;
  /** `startSimulator()` on a new database (the exchange starts at genesis): the floor. */
  freshStart: Summary;
}

/**
 * The perpetuals exchange's restart (docs/chains/lighter.md ("The perpetuals-exchange chain"), durability): the
 * simulator with the exchange only, `transfers` transfers sent through the exchange's HTTP API
 * (each journaled before it is answered), stopped, then started again on the same `--db` `runs`
 * times — each start replays the whole journal — against a start on a new database.
 * Standalone: `npx tsx scripts/bench/nonEvmChains.ts lvm-restart` (BENCH_LVM_TRANSFERS, default 1000).
 */
export async function benchLvmRestart(params: { transfers: number; runs: number }, progress: (line: string) => void): Promise<LvmRestartResult> {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-lvm-'));
  const LVM = LVM_CHAIN.id;
  const start = (dbPath: string) => startSimulator({ port: 0, dbPath, log: () => undefined, chains: [{ id: LVM }] });
  try {
    const dbPath = join(dir, 'sim.db');
    const sim = await start(dbPath);
    try {
      const exchange = sim.chains.find((chain) => chain.id === LVM)!;
      const [from, to] = exchange.accounts!.map((account) => ({ index: Number(account.address), apiKey: account.privateKey }));
      for (let i = 0; i < params.transfers; i++) {
        const response = await fetch(`${exchange.rpcUrl}/api/v1/transfer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': from!.apiKey },
          body: JSON.stringify({ accountIndex: from!.index, action: { type: 'transfer', parameters: { toAccountIndex: to!.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1_000 + i, usdcFee: 10_000 } } }),
        });
        if (response.status !== 200) throw new Error(`exchange transfer ${i} failed (${response.status}): ${await response.text()}`);
      }
    } finally {
      await sim.stop();
    }
    const timedStart = async (path: string) => {
      const started = performance.now();
      const running = await start(path);
      const ms = performance.now() - started;
      await running.stop();
      return ms;
    };
    const restart: number[] = [];
    const fresh: number[] = [];
    for (let run = 0; run < params.runs; run++) {
      restart.push(await timedStart(dbPath));
      fresh.push(await timedStart(join(dir, `fresh-${run}.db`)));
      progress(`  exchange restart with ${params.transfers} journaled transfers: ${formatMs(restart.at(-1)!)} (new database: ${formatMs(fresh.at(-1)!)})`);
    }
    return { transfers: params.transfers, restart: summarize(restart), freshStart: summarize(fresh) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatLvmRestart(result: LvmRestartResult): string {
  return `  exchange restart, ${result.transfers} journaled transfers: startSimulator() median ${formatMs(result.restart.median)}  max ${formatMs(result.restart.max)}; new database ${formatMs(result.freshStart.median)}`;
}

/**
 * The EVM → SVM bridge figure alone, in a simulator of its own (EVM 8453 and SVM):
 * `npx tsx scripts/bench/nonEvmChains.ts evm-to-svm` (BENCH_SVM_BRIDGES, default 20).
 */
export async function benchEvmToSvmAlone(bridges: number): Promise<NonEvmChainsResult['evmToSvm']> {
  const sim = await startSimulator({ port: 0, log: () => undefined, chains: [{ id: EVM }, { id: SVM }] });
  try {
    const connection = new Connection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl, 'confirmed');
    const payer = Keypair.generate();
    await connection.confirmTransaction({ signature: await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL), ...(await connection.getLatestBlockhash()) });
    return await benchEvmToSvm(sim, svmTransferOnce(connection, payer), bridges);
  } finally {
    await sim.stop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'evm-to-svm') {
  const result = await benchEvmToSvmAlone(positiveIntFromEnv('BENCH_SVM_BRIDGES', 20));
  process.stdout.write(`  EVM → SVM bridge: e2e median ${formatMs(result.e2e.median)}, floor median ${formatMs(result.floor.median)}, ratio ${result.ratio.toFixed(2)}x\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'lvm-restart') {
  const transfers = positiveIntFromEnv('BENCH_LVM_TRANSFERS', 1000);
  const result = await benchLvmRestart({ transfers, runs: 5 }, (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${formatLvmRestart(result)}\n`);
}
