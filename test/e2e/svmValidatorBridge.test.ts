import { solanaConnection } from '../support/solanaConnections';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Connection, Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { erc20Abi, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import { isProcessAlive } from '../../src/process/isProcessAlive';
import { executeQuoteSteps, getJson, postJson, publicClientFor, usdcOf, waitForSettledStatus } from '../support/bridgeClient';
import { waitUntilGone } from '../support/cliProcess';
import { pooledChains } from '../support/pooledNodes';
import { sendSvmStepItem, type SvmStepItemData } from '../support/svmClient';

// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success

/**
 * `--svm validator` end to end. No `solana-test-validator` can be installed on this machine, so
 * INTENTSIM_SOLANA_TEST_VALIDATOR points at the stand-in test/fixtures/bin/solana-test-validator:
 * a separate process that takes the validator's flags and serves the simulator's own Solana
 * JSON-RPC over LiteSVM. The simulator spawns it, waits for its RPC, and then reaches it only
 * through JSON-RPC and its websocket (docs/chains/solana.md ("The SVM chain")).
 */
const SVM = 792703809;
const EVM = 8453;
const SOL = '11111111111111111111111111111111';
const STAND_IN = resolve('test/fixtures/bin/solana-test-validator');

let sim: RunningSimulator;
let connection: Connection;
let standIn: { pid: number; argv: string[] };

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    env: { INTENTSIM_SOLANA_TEST_VALIDATOR: STAND_IN },
    svmRuntime: 'validator',
    log: () => undefined,
    chains: [...pooledChains([EVM]), { id: SVM }],
  });
  connection = solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl);
  standIn = JSON.parse(readFileSync(join(sim.dataDir, `svm-${SVM}`, 'validator-ledger', 'stand-in.json'), 'utf8')) as typeof standIn;
}, 60_000);

afterAll(async () => {
  await sim?.stop();
});

/** The value after `flag` on the stand-in's command line. */
function flagValue(flag: string): string | undefined {
  const at = standIn.argv.indexOf(flag);
  return at < 0 ? undefined : standIn.argv[at + 1];
}

/** What the official SDK's SVM adapter does with a step item (test/support/svmClient.ts). */
const sendStepItem = (user: Keypair, data: SvmStepItemData): Promise<string> => sendSvmStepItem(connection, user, data);

describe('--svm validator: a spawned solana-test-validator (the stand-in), reached over RPC only', () => {
  it('is spawned as a child of the simulator with the validator flags: its ports, --ledger in the data dir, --reset, --quiet, and the genesis accounts as --account files', async () => {
    expect(isProcessAlive(standIn.pid)).toBe(true);
    const parentPid = Number(readFileSync(`/proc/${standIn.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
    expect(parentPid).toBe(process.pid);
    const rpcUrl = new URL(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl);
    expect(flagValue('--rpc-port')).toBe(rpcUrl.port);
    expect(flagValue('--bind-address')).toBe('127.0.0.1');
    expect(flagValue('--ledger')).toBe(join(sim.dataDir, `svm-${SVM}`, 'validator-ledger'));
    expect(standIn.argv).toEqual(expect.arrayContaining(['--reset', '--quiet']));
    const [faucet, gossip] = [Number(flagValue('--faucet-port')), Number(flagValue('--gossip-port'))];
    const [low, high] = flagValue('--dynamic-port-range')!.split('-').map(Number) as [number, number];
    expect(new Set([Number(rpcUrl.port), Number(rpcUrl.port) + 1, faucet, gossip]).size).toBe(4);
    expect([Number(rpcUrl.port), Number(rpcUrl.port) + 1, faucet, gossip].every((port) => port < low || port > high)).toBe(true);
    // one --account <address> <file> per genesis account: every file holds its address, and the chain shows the funds
    const accountFlags = standIn.argv.flatMap((arg, index) => (arg === '--account' ? [[standIn.argv[index + 1]!, standIn.argv[index + 2]!] as const] : []));
    const summary = sim.chains.find((chain) => chain.id === SVM)!;
    expect(accountFlags.map(([address]) => address)).toEqual(expect.arrayContaining(summary.accounts!.map((account) => account.address)));
    for (const [address, file] of accountFlags) expect(JSON.parse(readFileSync(file, 'utf8')).pubkey).toBe(address);
    expect(await connection.getBalance(new PublicKey(summary.accounts![0]!.address))).toBe(1000 * LAMPORTS_PER_SOL);
    const { body } = await getJson(`${sim.baseUrl}/chains`);
    expect(body.chains.find((chain: { id: number }) => chain.id === SVM)).toMatchObject({ vmType: 'svm', httpRpcUrl: summary.rpcUrl });
  });

  it('SVM → EVM: a deposit sent to the validator with web3.js is seen through RPC, and the solver fills on the EVM chain', async () => {
    const user = Keypair.generate();
    const airdrop = await connection.requestAirdrop(user.publicKey, 5 * LAMPORTS_PER_SOL);
    await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
    const usdc = await usdcOf(sim.baseUrl, EVM);
    const recipient = sim.accounts[6]!.address as Address;
    const before = await publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.publicKey.toBase58(), recipient, originChainId: SVM, destinationChainId: EVM, originCurrency: SOL, destinationCurrency: usdc, amount: String(LAMPORTS_PER_SOL), tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const signature = await sendStepItem(user, step.items[0].data);
    const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
    expect(status.status).toBe('success');
    expect(status.inTxHashes).toContain(signature);
    const after = await publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    expect(after - before).toBe(BigInt(quote.body.details.currencyOut.amount));
  });

  it('EVM → SVM: the solver pays a fresh SVM recipient with a signed SPL transfer sent to the validator', async () => {
    const evmUsdc = await usdcOf(sim.baseUrl, EVM);
    const svmUsdc = await usdcOf(sim.baseUrl, SVM);
    const user = sim.accounts[7]!;
    const recipient = Keypair.generate().publicKey;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address, recipient: recipient.toBase58(), originChainId: EVM, destinationChainId: SVM, originCurrency: evmUsdc, destinationCurrency: svmUsdc, amount: '25000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const status = await waitForSettledStatus(sim.baseUrl, quote.body.steps.at(-1).requestId as string);
    expect(status.status).toBe('success');
    const mined = await connection.getTransaction(status.txHashes![0]!, { maxSupportedTransactionVersion: 0 });
    expect(mined?.meta?.err).toBeNull();
    const accounts = await connection.getTokenAccountsByOwner(recipient, { mint: new PublicKey(svmUsdc) });
    expect((await connection.getTokenAccountBalance(accounts.value[0]!.pubkey)).value.amount).toBe(quote.body.details.currencyOut.amount);
  });

  it('mining a block waits for the validator to make its slots (it keeps its own clock)', async () => {
    const slot = await connection.getSlot();
    const mined = await postJson(`${sim.baseUrl}/admin/chains/${SVM}/mine`, { blocks: 2 });
    expect(mined.status, JSON.stringify(mined.body)).toBe(200);
    expect(await connection.getSlot()).toBeGreaterThanOrEqual(slot + 2);
  });
});

describe('--svm validator without a binary', () => {
  it('fails to start with a ConfigurationError naming where it looked (INTENTSIM_SOLANA_TEST_VALIDATOR, PATH)', async () => {
    const notOnPath = await startSimulator({ port: 0, env: { PATH: '/nonexistent-bin' }, svmRuntime: 'validator', log: () => undefined, chains: [{ id: SVM }] }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(notOnPath?.name).toBe('SolanaTestValidatorNotFoundError');
    expect(notOnPath?.message).toContain('INTENTSIM_SOLANA_TEST_VALIDATOR): not set');
    expect(notOnPath?.message).toContain('PATH (/nonexistent-bin): no executable named solana-test-validator');
    const missing = resolve('test/fixtures/bin/no-such-validator');
    expect(existsSync(missing)).toBe(false);
    await expect(startSimulator({ port: 0, env: { INTENTSIM_SOLANA_TEST_VALIDATOR: missing }, svmRuntime: 'validator', log: () => undefined, chains: [{ id: SVM }] })).rejects.toThrow(`${missing}: does not exist`);
  });
});

describe('the validator dies with the simulator', () => {
  it('stop(): the spawned validator is gone', async () => {
    const own = await startSimulator({ port: 0, env: { INTENTSIM_SOLANA_TEST_VALIDATOR: STAND_IN }, svmRuntime: 'validator', log: () => undefined, chains: [{ id: SVM }] });
    const { pid } = JSON.parse(readFileSync(join(own.dataDir, `svm-${SVM}`, 'validator-ledger', 'stand-in.json'), 'utf8')) as { pid: number };
    expect(isProcessAlive(pid)).toBe(true);
    await own.stop();
    expect(await waitUntilGone([pid])).toEqual([]);
  }, 60_000);
});
