// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success
// chain kinds: evm, svm, bvm, lvm
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, LAMPORTS_PER_SOL, type Connection } from '@solana/web3.js';
import * as bitcoin from 'bitcoinjs-lib';
import * as ecc from '@bitcoinerlab/secp256k1';
import { ECPairFactory } from 'ecpair';
import { createPublicClient, createTestClient, createWalletClient, encodeFunctionData, http, parseEther, zeroAddress, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractArtifacts } from '../../fixtures/contracts/artifacts.generated';
import { BvmChain } from '../../src/chains/bvm/BvmChain';
import { LvmChain } from '../../src/chains/lvm/LvmChain';
import { EvmChain } from '../../src/chains/evm/EvmChain';
import { deployFixtureContract } from '../../src/chains/evm/deployFixtureContract';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/nodes/bvm/bvmTransactions';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, nativeBridgeBody, postJson, waitForSettledStatus } from '../support/bridgeClient';
import { BTC_ADDRESS as BTC, BVM_CHAIN_ID as BVM, bvmRpc, signDepositStep } from '../support/bvmClient';
import { chainAdapterOf } from '../support/chainAdapterOf';
import { startCliProcess } from '../support/cliProcess';
import { closedPortUrl } from '../support/closedPortUrl';
import { pooledChains } from '../support/pooledNodes';
import { solanaConnection } from '../support/solanaConnections';
import { airdroppedKeypair, sendSvmStepItem, SOL, SVM_CHAIN_ID as SVM, type SvmStepItemData } from '../support/svmClient';

/**
 * Issue 35's first acceptance line, end to end (docs/forking.md, "Forking several chains at once"):
 * an upstream simulator holds state the forking one never makes itself (an EVM account funded and a
 * contract deployed only there, a Solana keypair funded only there, a Bitcoin output paid only
 * there, a Lighter sub-account only there); a simulator forking all four at once (from code and from the CLI)
 * shows it all, bridges from the forked-in accounts succeed locally, and the upstream is unchanged.
 */
const EVM = 1;
const LVM = 3586256;
/** USDC (6 decimals) an exchange sub-account holds only upstream. */
const SUB_COLLATERAL = 5_000_000n;
const UNFORKED = 8453;
const SOL_UNITS = BigInt(LAMPORTS_PER_SOL);
const network = bitcoin.networks.regtest;
bitcoin.initEccLib(ecc);
const ECPair = ECPairFactory(ecc);
/** An EVM key only the upstream funds. */
const UPSTREAM_USER_KEY: Hex = `0x${'5c'.repeat(32)}`;
const upstreamUser = privateKeyToAccount(UPSTREAM_USER_KEY);
const TOKEN_UNITS = 777n * 10n ** 18n;
/** A Bitcoin key neither simulator's mnemonic derives: its output is paid upstream only. */
const holder = ECPair.fromPrivateKey(Buffer.alloc(32, 23), { network });
const holderAddress = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(holder.publicKey), network }).address!;
const holderScript = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(holder.publicKey), network }).output!;
const FUNDED_SATS = 40_000_000n;

/** Anvil processes whose command line names `dir` (their IPC socket is in the data directory). */
function anvilsUnder(dir: string): string[] {
  try {
    return execFileSync('pgrep', ['-a', '-f', `anvil .*${dir}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

/** Esplora's `/address/:a/utxo`, read with plain fetch as an integrator does. */
async function esploraUtxos(esploraUrl: string, address: string): Promise<Array<{ txid: string; vout: number; value: number }>> {
  const response = await fetch(`${esploraUrl}/address/${address}/utxo`);
  expect(response.status).toBe(200);
  return (await response.json()) as Array<{ txid: string; vout: number; value: number }>;
}

describe('a simulator forking chain 1, Solana, Bitcoin and Lighter of another simulator at once', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fork-every-kind-'));
  let upstream: RunningSimulator;
  let forking: RunningSimulator;
  let upstreamEvm: PublicClient;
  let upstreamSolana: Connection;
  let upstreamEsplora: string;
  let upstreamBvmRpc: string;
  let forks: Record<string, string>;
  let token: Address;
  let solanaUser: Keypair;
  let fundingTxid: string;
  let subIndex: number;
  let upstreamHeight: number;
  let before: { block: bigint; balance: bigint; nonce: number; lamports: number; signatures: number; bitcoinTip: string };

  const rpcUrlOf = (sim: RunningSimulator, chainId: number) => sim.chains.find((chain) => chain.id === chainId)!.rpcUrl;
  const forkedEvm = () => createPublicClient({ transport: http(rpcUrlOf(forking, EVM)) });
  const tokenBalance = (client: PublicClient, owner: Address) => client.readContract({ address: token, abi: contractArtifacts.PermitToken.abi, functionName: 'balanceOf', args: [owner] });

  beforeAll(async () => {
    // the upstream's chain 1 is this worker's pooled Anvil (reset to genesis)
    upstream = await startSimulator({ port: 0, env: {}, log: () => undefined, dataDir: join(dir, 'upstream'), chains: [...pooledChains([EVM]), { id: SVM }, { id: BVM }, { id: LVM }] });

    // EVM, upstream only: an account funded with a cheat, a token it deploys and mints to itself
    upstreamEvm = createPublicClient({ transport: http(rpcUrlOf(upstream, EVM)) });
    await createTestClient({ mode: 'anvil', transport: http(rpcUrlOf(upstream, EVM)) }).setBalance({ address: upstreamUser.address, value: parseEther('3') });
    token = await deployFixtureContract(rpcUrlOf(upstream, EVM), UPSTREAM_USER_KEY, 'PermitToken', [upstreamUser.address]);
    const upstreamChain = chainAdapterOf(upstream, EVM, EvmChain).viemChain();
    const wallet = createWalletClient({ account: upstreamUser, chain: upstreamChain, transport: http(rpcUrlOf(upstream, EVM)) });
    await upstreamEvm.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ to: token, data: encodeFunctionData({ abi: contractArtifacts.PermitToken.abi, functionName: 'mint', args: [upstreamUser.address, TOKEN_UNITS] }) }), pollingInterval: 5 });

    // Solana, upstream only: a fresh keypair airdropped 10 SOL
    upstreamSolana = solanaConnection(rpcUrlOf(upstream, SVM));
    solanaUser = await airdroppedKeypair(upstreamSolana, 10);

    // Bitcoin, upstream only: a test account pays the holder, mined there
    const upstreamBitcoin = chainAdapterOf(upstream, BVM, BvmChain);
    const payer = upstreamBitcoin.keys.testAccounts[0]!;
    const coin = upstreamBitcoin.ledger.coinsOf(payer.script, false)[0]!;
    const payment = signP2wpkhTransaction([{ coin, key: payer }], [
      { script: holderScript, value: FUNDED_SATS },
      { script: payer.script, value: coin.value - FUNDED_SATS - p2wpkhFee(1, 2) },
    ]);
    upstreamBvmRpc = rpcUrlOf(upstream, BVM);
    fundingTxid = await bvmRpc(upstreamBvmRpc, 'sendrawtransaction', [payment.toHex()]);
    await bvmRpc(upstreamBvmRpc, 'generatetoaddress', [1, payer.address]);
    upstreamEsplora = upstreamBitcoin.describe().clientUrls!.esploraUrl!;

    // Lighter, upstream only: a sub-account a test account creates and pays collateral to
    const exchange = chainAdapterOf(upstream, LVM, LvmChain);
    const owner = upstream.chains.find((chain) => chain.id === LVM)!.accounts![0]!;
    const created = await fetch(`${rpcUrlOf(upstream, LVM)}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': owner.privateKey } });
    subIndex = ((await created.json()) as { account: { index: number } }).account.index;
    exchange.ledger.transfer({ fromAccountIndex: Number(owner.address), toAccountIndex: subIndex, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: SUB_COLLATERAL, usdcFee: 10_000n });
    upstreamHeight = exchange.ledger.height;

    before = {
      block: await upstreamEvm.getBlockNumber({ cacheTime: 0 }),
      balance: await upstreamEvm.getBalance({ address: upstreamUser.address }),
      nonce: await upstreamEvm.getTransactionCount({ address: upstreamUser.address }),
      lamports: await upstreamSolana.getBalance(solanaUser.publicKey),
      signatures: (await upstreamSolana.getSignaturesForAddress(solanaUser.publicKey)).length,
      bitcoinTip: await bvmRpc(upstreamBvmRpc, 'getbestblockhash'),
    };

    forks = { [EVM]: rpcUrlOf(upstream, EVM), [SVM]: rpcUrlOf(upstream, SVM), [BVM]: upstreamEsplora, [LVM]: exchange.describe().clientUrls!.apiUrl! };
    // 8453 (not forked) is this worker's pooled Anvil; the start's time beside an unforked one is the bench's (scripts/bench/fork.ts)
    forking = await startSimulator({ port: 0, env: {}, log: () => undefined, dataDir: join(dir, 'forking'), chains: [{ id: EVM }, ...pooledChains([UNFORKED]), { id: SVM }, { id: BVM }, { id: LVM }], fork: forks });
  }, 180_000);

  afterAll(async () => {
    await forking?.stop();
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("each forked chain says what it forks, and shows what exists only upstream: an EVM balance, a contract's code and answers, a Solana balance, a Bitcoin unspent output", async () => {
    expect(forking.control.chain(EVM).describe().fork?.url).toBe(forks[EVM]);
    expect(forking.control.chain(SVM).describe().fork?.url).toBe(forks[SVM]);
    expect(forking.control.chain(BVM).describe().fork?.url).toBe(forks[BVM]);
    expect(forking.control.chain(LVM).describe().fork?.url).toBe(forks[LVM]);
    expect(forking.control.chain(UNFORKED).describe().fork).toBeUndefined();

    const evm = forkedEvm();
    expect(await evm.getBalance({ address: upstreamUser.address })).toBe(before.balance);
    const code = await evm.getCode({ address: token });
    expect(code?.length).toBeGreaterThan(2);
    expect(code).toBe(await upstreamEvm.getCode({ address: token }));
    expect(await tokenBalance(evm, upstreamUser.address)).toBe(TOKEN_UNITS);

    const solana = solanaConnection(rpcUrlOf(forking, SVM));
    expect(await solana.getBalance(solanaUser.publicKey)).toBe(10 * LAMPORTS_PER_SOL);

    const forkedEsplora = forking.control.chain(BVM).describe().clientUrls!.esploraUrl!;
    expect(await esploraUtxos(forkedEsplora, holderAddress)).toEqual([expect.objectContaining({ txid: fundingTxid, vout: 0, value: Number(FUNDED_SATS) })]);

    const account = (await (await fetch(`${rpcUrlOf(forking, LVM)}/api/v1/account?by=index&value=${subIndex}`)).json()) as { accounts: Array<{ collateral: string }> };
    expect(BigInt(account.accounts[0]!.collateral)).toBe(SUB_COLLATERAL);
  });

  it('a bridge paid by the upstream-only EVM key, chain 1 → 8453, succeeds locally', async () => {
    const quote = await postJson(`${forking.baseUrl}/quote/v2`, nativeBridgeBody(upstreamUser.address, { originChainId: EVM, destinationChainId: UNFORKED, amount: String(parseEther('0.5')) }));
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await executeQuoteSteps(forking, UPSTREAM_USER_KEY, quote.body);
    expect((await waitForSettledStatus(forking.baseUrl, quote.body.steps[0].requestId)).status).toBe('success');
    expect(await forkedEvm().getBalance({ address: upstreamUser.address })).toBeLessThan(before.balance - parseEther('0.5'));
  }, 60_000);

  it('a bridge paid by the forked-in Solana keypair, SOL → ETH on 8453, succeeds locally', async () => {
    const solana = solanaConnection(rpcUrlOf(forking, SVM));
    const recipient = forking.accounts[4]!.address as Address;
    const quote = await postJson(`${forking.baseUrl}/quote/v2`, {
      user: solanaUser.publicKey.toBase58(), recipient, originChainId: SVM, destinationChainId: UNFORKED, originCurrency: SOL, destinationCurrency: zeroAddress, amount: String(2n * SOL_UNITS), tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await sendSvmStepItem(solana, solanaUser, quote.body.steps[0].items[0].data as SvmStepItemData);
    expect((await waitForSettledStatus(forking.baseUrl, quote.body.steps[0].requestId)).status).toBe('success');
    expect(await solana.getBalance(solanaUser.publicKey)).toBeLessThan(8 * LAMPORTS_PER_SOL);
  }, 60_000);

  it('a bridge paid from the forked-in Bitcoin output, BTC → ETH on 8453, succeeds locally', async () => {
    const forkedBvmRpc = rpcUrlOf(forking, BVM);
    const quote = await postJson(`${forking.baseUrl}/quote/v2`, {
      user: holderAddress, recipient: forking.accounts[5]!.address, originChainId: BVM, destinationChainId: UNFORKED, originCurrency: BTC, destinationCurrency: zeroAddress, amount: '1500000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const signed = signDepositStep(step, holder.toWIF());
    expect(await bvmRpc(forkedBvmRpc, 'sendrawtransaction', [signed.hex])).toBe(signed.txid);
    await bvmRpc(forkedBvmRpc, 'generatetoaddress', [1, holderAddress]);
    expect((await waitForSettledStatus(forking.baseUrl, step.requestId)).status).toBe('success');
  }, 60_000);

  it('the upstream is unchanged: its chain 1 block and balances, the Solana balance and history, the Bitcoin tip and the output still unspent', async () => {
    expect(await upstreamEvm.getBlockNumber({ cacheTime: 0 })).toBe(before.block);
    expect(await upstreamEvm.getBalance({ address: upstreamUser.address })).toBe(before.balance);
    expect(await upstreamEvm.getTransactionCount({ address: upstreamUser.address })).toBe(before.nonce);
    expect(await upstreamSolana.getBalance(solanaUser.publicKey)).toBe(before.lamports);
    expect((await upstreamSolana.getSignaturesForAddress(solanaUser.publicKey)).length).toBe(before.signatures);
    expect(await bvmRpc(upstreamBvmRpc, 'getbestblockhash')).toBe(before.bitcoinTip);
    expect(await esploraUtxos(upstreamEsplora, holderAddress)).toEqual([expect.objectContaining({ txid: fundingTxid, vout: 0 })]);
    expect(chainAdapterOf(upstream, LVM, LvmChain).ledger.height).toBe(upstreamHeight);
  });

  it('intentsim start --fork for the four kinds: --json names each chain\'s fork, and the forked-in balance is there', async () => {
    const dataDir = join(dir, 'cli');
    const cli = await startCliProcess({ args: ['--data-dir', dataDir, '--chains', `${EVM},${SVM},${BVM},${LVM}`, ...Object.entries(forks).flatMap(([chain, url]) => ['--fork', `${chain}=${url}`])] });
    try {
      const entry = (id: number) => cli.ready.chains.find((chain) => chain.id === id) as unknown as { rpcUrl: string; fork?: { url: string; note?: string } };
      for (const id of [EVM, SVM, BVM, LVM]) expect(entry(id).fork?.url, `chain ${id}`).toBe(forks[String(id)]);
      expect(await createPublicClient({ transport: http(entry(EVM).rpcUrl) }).getBalance({ address: upstreamUser.address })).toBe(before.balance);
    } finally {
      const exited = new Promise((resolve) => cli.top.once('exit', resolve));
      cli.top.kill('SIGINT');
      await exited;
    }
    expect(anvilsUnder(dataDir)).toEqual([]);
  }, 120_000);
});

describe('intentsim start --fork of a Solana or Bitcoin upstream that refuses the connection', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fork-every-kind-bad-'));
  let runs = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the CLI to its end: its exit code, its stderr, and the anvil processes it left. */
  const start = (args: readonly string[]): Promise<{ code: number | null; stderr: string; left: string[] }> => {
    const dataDir = join(dir, `run-${++runs}`);
    return new Promise((resolve) => {
      execFile(process.execPath, ['bin/intentsim.js', 'start', '--json', '--port', '0', '--data-dir', dataDir, ...args], { encoding: 'utf8', timeout: 60_000 }, (error, _stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr, left: anvilsUnder(dataDir) });
      });
    });
  };
  const expectRefused = (run: { code: number | null; stderr: string; left: string[] }, line: RegExp) => {
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr.trimEnd()).toMatch(line);
    expect(run.code).toBe(2);
    expect(run.left).toEqual([]);
  };

  it('Solana: one line naming the chain and the upstream, exit 2, the EVM chain beside it stopped', async () => {
    const dead = await closedPortUrl();
    expectRefused(await start(['--chains', `${EVM},${SVM}`, '--fork', `${SVM}=${dead}`]), new RegExp(`^intentsim: chain ${SVM}: the fork upstream ${dead.replaceAll('.', '\\.')} did not answer getSlot \\(`));
  }, 60_000);

  it('Bitcoin: one line naming the chain and the upstream Esplora, exit 2, the EVM chain beside it stopped', async () => {
    const dead = await closedPortUrl();
    expectRefused(await start(['--chains', `${EVM},${BVM}`, '--fork', `${BVM}=${dead}`]), new RegExp(`^intentsim: chain ${BVM}: the fork's upstream Esplora ${dead.replaceAll('.', '\\.')} could not be read \\(GET /blocks/tip/height\\)`));
  }, 60_000);
});
