/**
 * Issue 35's bench figures (docs/forking.md, "What the bench measures"):
 *
 * - Fork start: an upstream simulator (chain 1, Solana, Bitcoin, Lighter) runs in this process;
 *   then, `runs` times, `startSimulator()` with chain 1, Solana and Bitcoin forked from it, and the
 *   same three chains unforked, in alternating order (the first of a pair is not always the colder),
 *   each timed from the call until it resolves. Medians of both and their ratio; target <= 3x.
 * - First-read latency per chain kind: in each forked start (and, for Lighter, a start forking the
 *   upstream's exchange), the first read of an account that exists only upstream, through the forked
 *   chain's own client URL as an integrator reads it (EVM `eth_getBalance`, Solana `getBalance`,
 *   Bitcoin Esplora `/address/:a/utxo`, Lighter `/api/v1/account`), against a second read of the
 *   same account (now local: the floor). Medians, and first/floor.
 *
 * Run it alone with `BENCH_ONLY=fork npm run bench` (or `tsx scripts/bench/fork.ts`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { createTestClient, http, parseEther, type Address } from 'viem';
import { BvmChain } from '../../src/chains/bvm/BvmChain';
import { LvmChain } from '../../src/chains/lvm/LvmChain';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/nodes/bvm/bvmTransactions';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { bvmRpc, BVM_CHAIN_ID } from '../../test/support/bvmClient';
import { chainAdapterOf } from '../../test/support/chainAdapterOf';
import { solanaConnection } from '../../test/support/solanaConnections';
import { airdroppedKeypair, SVM_CHAIN_ID } from '../../test/support/svmClient';
import { formatMs, positiveIntFromEnv, summarize, type Summary } from './measure';

const EVM = 1;
const SVM = SVM_CHAIN_ID;
const BVM = BVM_CHAIN_ID;
const LVM = 3586256;
/** The three chains the start figure forks (issue 35: "three forked chains"). */
const FORKED_START_CHAINS = [EVM, SVM, BVM];
const KINDS = ['evm', 'svm', 'bvm', 'lvm'] as const;
export type ForkedKind = (typeof KINDS)[number];

/** An address no simulator's mnemonic derives: funded only upstream. */
const UPSTREAM_EVM_USER: Address = '0x00000000000000000000000000000000f02cbe4c';
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
const holder = ECPairFactory(ecc).fromPrivateKey(Buffer.alloc(32, 35), { network });
const holderPayment = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(holder.publicKey), network });

export interface ReadLatency {
  /** The first read of the upstream-only account through the forked chain (fetched from the upstream). */
  first: Summary;
  /** The second read of the same account (local now): the floor. */
  floor: Summary;
  /** first median / floor median. */
  ratio: number;
}

export interface ForkBenchResult {
  runs: number;
  start: { forked: Summary; unforked: Summary; ratio: number; chainIds: number[] };
  reads: Record<ForkedKind, ReadLatency>;
}

/** What each kind's read asks of a forked simulator, and what it must find (so a wrong fork fails, not times). */
interface UpstreamOnlyState {
  evmUser: Address;
  solanaUser: string;
  lamports: number;
  bitcoinAddress: string;
  lighterIndex: number;
}

export async function benchFork(runs: number, progress: (line: string) => void = () => {}): Promise<ForkBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-fork-'));
  let upstream: RunningSimulator | undefined;
  try {
    upstream = await startSimulator({ port: 0, env: {}, log: () => undefined, dataDir: join(dir, 'upstream'), chains: [{ id: EVM }, { id: SVM }, { id: BVM }, { id: LVM }] });
    const state = await makeUpstreamOnlyState(upstream);
    const rpcUrlOf = (chainId: number) => upstream!.chains.find((chain) => chain.id === chainId)!.rpcUrl;
    const forks = {
      [EVM]: rpcUrlOf(EVM),
      [SVM]: rpcUrlOf(SVM),
      [BVM]: upstream.control.chain(BVM).describe().clientUrls!.esploraUrl!,
    };
    const lighterFork = { [LVM]: upstream.control.chain(LVM).describe().clientUrls!.apiUrl! };

    const forkedMs: number[] = [];
    const unforkedMs: number[] = [];
    const reads: Record<ForkedKind, { first: number[]; floor: number[] }> = { evm: { first: [], floor: [] }, svm: { first: [], floor: [] }, bvm: { first: [], floor: [] }, lvm: { first: [], floor: [] } };
    let started = 0;
    const start = async (fork: Record<number, string> | undefined, chainIds: number[]) => {
      const begun = performance.now();
      const sim = await startSimulator({ port: 0, env: {}, log: () => undefined, dataDir: join(dir, `run-${++started}`), chains: chainIds.map((id) => ({ id })), ...(fork ? { fork } : {}) });
      return { sim, ms: performance.now() - begun };
    };

    for (let i = 0; i < runs; i++) {
      const order = i % 2 === 0 ? (['unforked', 'forked'] as const) : (['forked', 'unforked'] as const);
      for (const which of order) {
        const { sim, ms } = await start(which === 'forked' ? forks : undefined, FORKED_START_CHAINS);
        try {
          if (which === 'unforked') {
            unforkedMs.push(ms);
            continue;
          }
          forkedMs.push(ms);
          for (const kind of ['evm', 'svm', 'bvm'] as const) {
            const read = await timedReads(kind, sim, state);
            reads[kind].first.push(read.first);
            reads[kind].floor.push(read.floor);
          }
        } finally {
          await sim.stop();
        }
      }
      // Lighter: its own forked start (the start figure is the three chains issue 35 names)
      const { sim } = await start(lighterFork, [LVM]);
      try {
        const read = await timedReads('lvm', sim, state);
        reads.lvm.first.push(read.first);
        reads.lvm.floor.push(read.floor);
      } finally {
        await sim.stop();
      }
      progress(`  fork run ${i + 1}/${runs}: forked start ${formatMs(forkedMs[i]!)}, unforked ${formatMs(unforkedMs[i]!)}; first reads ${KINDS.map((kind) => `${kind} ${formatMs(reads[kind].first[i]!)}`).join(', ')}`);
    }

    const forked = summarize(forkedMs);
    const unforked = summarize(unforkedMs);
    const latency = (kind: ForkedKind): ReadLatency => {
      const first = summarize(reads[kind].first);
      const floor = summarize(reads[kind].floor);
      return { first, floor, ratio: first.median / floor.median };
    };
    return {
      runs,
      start: { forked, unforked, ratio: forked.median / unforked.median, chainIds: FORKED_START_CHAINS },
      reads: { evm: latency('evm'), svm: latency('svm'), bvm: latency('bvm'), lvm: latency('lvm') },
    };
  } finally {
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Upstream only: an EVM account funded with a cheat, a Solana keypair airdropped, a Bitcoin output paid and mined, a Lighter sub-account. */
async function makeUpstreamOnlyState(upstream: RunningSimulator): Promise<UpstreamOnlyState> {
  const rpcUrlOf = (chainId: number) => upstream.chains.find((chain) => chain.id === chainId)!.rpcUrl;
  await createTestClient({ mode: 'anvil', transport: http(rpcUrlOf(EVM)) }).setBalance({ address: UPSTREAM_EVM_USER, value: parseEther('3') });

  const solanaUser = await airdroppedKeypair(solanaConnection(rpcUrlOf(SVM)), 10);

  const bitcoinChain = chainAdapterOf(upstream, BVM, BvmChain);
  const payer = bitcoinChain.keys.testAccounts[0]!;
  const coin = bitcoinChain.ledger.coinsOf(payer.script, false)[0]!;
  const sats = 40_000_000n;
  const payment = signP2wpkhTransaction([{ coin, key: payer }], [
    { script: holderPayment.output!, value: sats },
    { script: payer.script, value: coin.value - sats - p2wpkhFee(1, 2) },
  ]);
  await bvmRpc(rpcUrlOf(BVM), 'sendrawtransaction', [payment.toHex()]);
  await bvmRpc(rpcUrlOf(BVM), 'generatetoaddress', [1, payer.address]);

  const owner = upstream.chains.find((chain) => chain.id === LVM)!.accounts![0]!;
  const created = await fetch(`${rpcUrlOf(LVM)}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': owner.privateKey } });
  const lighterIndex = ((await created.json()) as { account: { index: number } }).account.index;
  chainAdapterOf(upstream, LVM, LvmChain).ledger.transfer({ fromAccountIndex: Number(owner.address), toAccountIndex: lighterIndex, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 5_000_000n, usdcFee: 10_000n });

  return { evmUser: UPSTREAM_EVM_USER, solanaUser: solanaUser.publicKey.toBase58(), lamports: 10 * 1_000_000_000, bitcoinAddress: holderPayment.address!, lighterIndex };
}

/** The first and the second read of the kind's upstream-only account through the forked chain's client URL; each answer is checked. */
async function timedReads(kind: ForkedKind, sim: RunningSimulator, state: UpstreamOnlyState): Promise<{ first: number; floor: number }> {
  const read = readOf(kind, sim, state);
  const time = async () => {
    const begun = performance.now();
    await read();
    return performance.now() - begun;
  };
  const first = await time();
  const floor = await time();
  return { first, floor };
}

function readOf(kind: ForkedKind, sim: RunningSimulator, state: UpstreamOnlyState): () => Promise<void> {
  const chainId = { evm: EVM, svm: SVM, bvm: BVM, lvm: LVM }[kind];
  const rpcUrl = sim.chains.find((chain) => chain.id === chainId)!.rpcUrl;
  switch (kind) {
    case 'evm':
      return async () => {
        const balance = await jsonRpc<string>(rpcUrl, 'eth_getBalance', [state.evmUser, 'latest']);
        if (BigInt(balance) !== parseEther('3')) throw new Error(`the forked chain 1 read ${balance} for the upstream-only account, not 3 ETH`);
      };
    case 'svm':
      return async () => {
        const balance = await jsonRpc<{ value: number }>(rpcUrl, 'getBalance', [state.solanaUser]);
        if (balance.value !== state.lamports) throw new Error(`the forked Solana chain read ${balance.value} lamports for the upstream-only keypair, not ${state.lamports}`);
      };
    case 'bvm': {
      const esploraUrl = sim.control.chain(chainId).describe().clientUrls!.esploraUrl!;
      return async () => {
        const utxos = (await (await fetch(`${esploraUrl}/address/${state.bitcoinAddress}/utxo`)).json()) as unknown[];
        if (utxos.length !== 1) throw new Error(`the forked Bitcoin chain's Esplora listed ${utxos.length} outputs of the upstream-only address, not 1`);
      };
    }
    case 'lvm':
      return async () => {
        const response = await fetch(`${rpcUrl}/api/v1/account?by=index&value=${state.lighterIndex}`);
        const body = (await response.json()) as { accounts?: Array<{ collateral: string }> };
        if (body.accounts?.[0]?.collateral === undefined) throw new Error(`the forked exchange did not find the upstream-only sub-account ${state.lighterIndex} (${response.status})`);
      };
  }
}

async function jsonRpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error || body.result === undefined) throw new Error(`${method}: ${body.error?.message ?? 'no result'}`);
  return body.result;
}

/** The report's lines: the start figure with its target, then first-read latency per kind. */
export function forkBenchLines(result: ForkBenchResult, targetRatio: number, verdict: (pass: boolean) => string): string[] {
  const { forked, unforked, ratio } = result.start;
  const names: Record<ForkedKind, string> = {
    evm: 'EVM eth_getBalance',
    svm: 'Solana getBalance',
    bvm: 'Bitcoin Esplora /address/:a/utxo',
    lvm: 'Lighter /api/v1/account',
  };
  const labels = [`startSimulator(), chains ${result.start.chainIds.join(',')} forked`, 'startSimulator(), the same chains unforked', 'ratio forked/unforked'];
  const label = (i: number) => labels[i]!.padEnd(Math.max(...labels.map((text) => text.length)));
  return [
    `fork (issue 35; the upstream is a simulator in this process; ${result.runs} runs, forked and unforked starts alternating)`,
    `  ${label(0)}  median ${formatMs(forked.median)}  min ${formatMs(forked.min)}  max ${formatMs(forked.max)}`,
    `  ${label(1)}  median ${formatMs(unforked.median)}  min ${formatMs(unforked.min)}  max ${formatMs(unforked.max)}`,
    `  ${label(2)}  ${ratio.toFixed(2)}x   target <= ${targetRatio}x ${verdict(ratio <= targetRatio)}`,
    `  first read of an upstream-only account (median; floor: the second read of it, local)`,
    ...KINDS.map((kind) => {
      const read = result.reads[kind];
      return `    ${kind} ${names[kind].padEnd(34)} first ${formatMs(read.first.median).padStart(9)}  floor ${formatMs(read.floor.median).padStart(9)}  ratio ${read.ratio.toFixed(1)}x`;
    }),
  ];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const progress = (line: string) => process.stderr.write(`${line}\n`);
  benchFork(positiveIntFromEnv('BENCH_FORK_RUNS', 5), progress).then(
    (result) => {
      // the target is TARGETS.forkStartOverUnforked of run-all.ts (importing it would run the whole bench)
      process.stdout.write(`${forkBenchLines(result, 3, (pass) => (pass ? 'PASS' : 'MISS')).join('\n')}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`fork bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
