// covers: endpoint:POST /quote/v2, status:success
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, createTestClient, createWalletClient, defineChain, encodeFunctionData, getAddress, http, parseEther, type Address, type Hex, type PublicClient } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractArtifacts } from '../../../fixtures/contracts/artifacts.generated';
import { createAnvilInstance, type AnvilInstance } from '../../../src/chains/evm/AnvilInstance';
import { deployFixtureContract } from '../../../src/chains/evm/deployFixtureContract';
import { simulatorContractAddresses } from '../../../src/chains/evm/deploySimulatorContracts';
import { DEFAULT_MNEMONIC } from '../../../src/keys/defaultMnemonic';
import { deriveSimulatorAccounts } from '../../../src/keys/simulatorAccounts';
import { resolveAnvilBinary } from '../../../src/process/resolveAnvilBinary';
import { startSimulator, type RunningSimulator } from '../../../src/simulator';
import { executeQuoteSteps, nativeBridgeBody, postJson, waitForSettledStatus } from '../../support/bridgeClient';
import { evmChainOf } from '../../support/evmChainOf';
import { pooledChains } from '../../support/pooledNodes';

/**
 * `--fork 8453=URL` (docs/forking.md): the upstream is a plain Anvil started here, with state the
 * simulator never makes — an account funded only there, an ERC-20 deployed only there, the
 * simulator's own deployer key already used there, code on a test account — and an old clock.
 * The forked simulator shows that state, pays a bridge from the forked-in account, and sends nothing upstream.
 */
const FORKED = 8453;
/** Base before its Cancun upgrade (Ecotone, March 2024): the simulator's contracts cannot run at a block this old. */
const UPSTREAM_GENESIS_SECONDS = 1_700_000_000;
/** Where the upstream's blocks go on: 2026-01-01, all of Base's upgrades on, months before the machine's clock here. */
const UPSTREAM_STATE_SECONDS = 1_767_225_600n;
/** A key only the upstream knows: its account is funded there, never by the simulator. */
const UPSTREAM_USER_KEY: Hex = `0x${'4b'.repeat(32)}`;
const upstreamUser = privateKeyToAccount(UPSTREAM_USER_KEY);
/** An address paid only after the block the second fork is pinned at. */
const LATE_PAYEE: Address = getAddress(`0x${'1a7e'.repeat(10)}`);
const TOKEN_UNITS = 1234n * 10n ** 18n;

/** Anvil processes whose command line names `dir` (their IPC socket is in the data directory). */
function anvilsUnder(dir: string): string[] {
  try {
    return execFileSync('pgrep', ['-a', '-f', `anvil .*${dir}`], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('an EVM chain forked from an upstream chain', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fork-'));
  const accounts = deriveSimulatorAccounts(DEFAULT_MNEMONIC, 10);
  let upstream: AnvilInstance;
  let upstreamClient: PublicClient;
  let token: Address;
  let pinnedBlock: bigint;
  let pinnedTimestamp: bigint;
  const sims: RunningSimulator[] = [];

  const startForked = async (forkBlock?: bigint): Promise<RunningSimulator> => {
    const sim = await startSimulator({
      port: 0,
      env: {},
      log: () => undefined,
      dataDir: join(dir, `sim-${sims.length}`),
      chains: [...pooledChains([1]), { id: FORKED }],
      fork: { [FORKED]: upstream.rpcUrl },
      ...(forkBlock === undefined ? {} : { forkBlock: { [FORKED]: Number(forkBlock) } }),
    });
    sims.push(sim);
    return sim;
  };
  const forkedClient = (sim: RunningSimulator) => createPublicClient({ transport: http(evmChainOf(sim, FORKED).rpcUrl) });
  const tokenBalance = (client: PublicClient, owner: Address) => client.readContract({ address: token, abi: contractArtifacts.PermitToken.abi, functionName: 'balanceOf', args: [owner] });

  beforeAll(async () => {
    upstream = createAnvilInstance({ chainId: FORKED, binaryPath: resolveAnvilBinary({}), logFile: join(dir, 'upstream.log'), genesisTimestamp: UPSTREAM_GENESIS_SECONDS });
    await upstream.start();
    upstreamClient = createPublicClient({ transport: http(upstream.rpcUrl) });
    const cheats = createTestClient({ mode: 'anvil', transport: http(upstream.rpcUrl) });
    await cheats.setNextBlockTimestamp({ timestamp: UPSTREAM_STATE_SECONDS });
    await cheats.mine({ blocks: 1 });
    await cheats.setBalance({ address: upstreamUser.address, value: parseEther('5') });
    token = await deployFixtureContract(upstream.rpcUrl, UPSTREAM_USER_KEY, 'PermitToken', [upstreamUser.address]);
    const upstreamChain = defineChain({ id: FORKED, name: 'upstream', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [upstream.rpcUrl] } } });
    const wallet = (key: Hex) => createWalletClient({ account: privateKeyToAccount(key), transport: http(upstream.rpcUrl), chain: upstreamChain });
    await upstreamClient.waitForTransactionReceipt({ hash: await wallet(UPSTREAM_USER_KEY).sendTransaction({ to: token, data: encodeFunctionData({ abi: contractArtifacts.PermitToken.abi, functionName: 'mint', args: [upstreamUser.address, TOKEN_UNITS] }) }), pollingInterval: 5 });
    // the simulator's deployer key has been used upstream (its nonce is 1 there), and a test account carries code
    await cheats.setBalance({ address: accounts.deployer.address, value: parseEther('1') });
    await upstreamClient.waitForTransactionReceipt({ hash: await wallet(accounts.deployer.privateKey as Hex).sendTransaction({ to: upstreamUser.address, value: 1n }), pollingInterval: 5 });
    await cheats.setCode({ address: accounts.testAccounts[0]!.address, bytecode: '0x60006000fd' });
    await cheats.mine({ blocks: 2 });
    const pinned = await upstreamClient.getBlock({ blockTag: 'latest' });
    pinnedBlock = pinned.number;
    pinnedTimestamp = pinned.timestamp;
    // after the pinned block: a payment the pinned fork must not see
    await upstreamClient.waitForTransactionReceipt({ hash: await wallet(UPSTREAM_USER_KEY).sendTransaction({ to: LATE_PAYEE, value: parseEther('1') }), pollingInterval: 5 });
    await cheats.mine({ blocks: 3 });
  }, 60_000);

  afterAll(async () => {
    for (const sim of sims) await sim.stop();
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("shows the upstream's accounts, contract code and answers, pays a bridge from a forked-in account, and sends nothing upstream", async () => {
    const before = {
      block: await upstreamClient.getBlockNumber({ cacheTime: 0 }),
      balance: await upstreamClient.getBalance({ address: upstreamUser.address }),
      nonce: await upstreamClient.getTransactionCount({ address: upstreamUser.address }),
    };
    const sim = await startForked();
    const forked = forkedClient(sim);

    // the state at the upstream's latest block, fetched through the fork
    expect(await forked.getBalance({ address: upstreamUser.address })).toBe(before.balance);
    expect(await forked.getBalance({ address: LATE_PAYEE })).toBe(parseEther('1'));
    expect(await forked.getCode({ address: token })).toBe(await upstreamClient.getCode({ address: token }));
    expect(await tokenBalance(forked, upstreamUser.address)).toBe(TOKEN_UNITS);
    // the simulator's contracts at their usual addresses, though the upstream used the deployer's key; the test account's code cleared
    const chain = evmChainOf(sim, FORKED);
    // it says what it forks, as the other kinds do (the start summary's `fork of` line, `fork` in --json)
    expect(chain.describe().fork).toEqual({ url: upstream.rpcUrl, note: expect.stringContaining(`pinned at its block ${before.block}`) });
    expect(chain.contractAddresses).toEqual(simulatorContractAddresses(accounts.deployer.address, accounts.testAccounts.length));
    expect(await forked.getCode({ address: accounts.testAccounts[0]!.address })).toBeUndefined();

    // the chain's time goes on from the upstream block's, not from the machine's
    const forkHead = await upstreamClient.getBlock({ blockNumber: before.block });
    const local = await forked.getBlock({ blockTag: 'latest' });
    expect(local.number).toBeGreaterThan(before.block);
    expect(local.timestamp).toBeGreaterThanOrEqual(forkHead.timestamp);
    expect(local.timestamp).toBeLessThan(forkHead.timestamp + 600n);
    expect(local.timestamp).toBeLessThan(BigInt(Math.floor(Date.now() / 1000)) - 86_400n);

    // a bridge from the forked chain, paid by the account only the upstream funded
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(upstreamUser.address, { originChainId: FORKED, destinationChainId: 1 }));
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await executeQuoteSteps(sim, UPSTREAM_USER_KEY, quote.body);
    const settled = await waitForSettledStatus(sim.baseUrl, quote.body.steps[0].requestId);
    expect(settled.status).toBe('success');
    expect(await forked.getBalance({ address: upstreamUser.address })).toBeLessThan(before.balance - 10n ** 16n);

    // the upstream is as it was
    expect(await upstreamClient.getBlockNumber({ cacheTime: 0 })).toBe(before.block);
    expect(await upstreamClient.getBalance({ address: upstreamUser.address })).toBe(before.balance);
    expect(await upstreamClient.getTransactionCount({ address: upstreamUser.address })).toBe(before.nonce);
  }, 120_000);

  it('--fork-block pins an earlier block: what the upstream did after it is not there', async () => {
    const sim = await startForked(pinnedBlock);
    const forked = forkedClient(sim);
    expect(await forked.getBalance({ address: LATE_PAYEE })).toBe(0n);
    expect(await tokenBalance(forked, upstreamUser.address)).toBe(TOKEN_UNITS);
    expect(await forked.getBlock({ blockNumber: pinnedBlock }).then((block) => block.timestamp)).toBe(pinnedTimestamp);
    // the blocks after the pinned one are the fork's own (the simulator's deployment), not the upstream's
    const next = await forked.getBlock({ blockNumber: pinnedBlock + 1n });
    expect(next.hash).not.toBe((await upstreamClient.getBlock({ blockNumber: pinnedBlock + 1n })).hash);
  }, 120_000);

  it("a block from before the chain's Cancun upgrade is refused in one line, nothing left running", async () => {
    const dataDir = join(dir, 'too-old');
    const refused = await startSimulator({ port: 0, env: {}, log: () => undefined, dataDir, chains: [{ id: FORKED }], fork: { [FORKED]: upstream.rpcUrl }, forkBlock: { [FORKED]: 0 } }).then(
      (sim): Error | undefined => {
        sims.push(sim);
        return undefined;
      },
      (error: unknown) => error as Error,
    );
    expect(refused?.name).toBe('ForkTooOldError');
    expect(refused?.message).toMatch(/^chain 8453: the fork block 0 \(2023-11-14T22:13:20\.000Z\) runs the chain's rules before its Cancun upgrade; .*fork a later block$/);
    expect(anvilsUnder(dataDir)).toEqual([]);
  }, 60_000);
});
