import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, http, parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { anvilBinaryQuery, assertChainsSupported, UnsupportedVmError } from '../../src/chains/chainAdapterRegistry';
import { loadSimulatorConfig } from '../../src/config/simulatorConfig';
import { VM_TYPES } from '../../src/domain/chain/chainDescription';
import { resolveAnvilBinary } from '../../src/process/resolveAnvilBinary';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import { publicClientFor } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { sendFrom } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

describe('chains are picked by VM kind', () => {
  it('every VM kind has an adapter; a VM without one is refused by name before anything starts', async () => {
    for (const vm of VM_TYPES) expect(() => assertChainsSupported([{ id: 1, vm }])).not.toThrow();
    expect(() => assertChainsSupported([{ id: 5, vm: 'wasm' as never }])).toThrow(UnsupportedVmError);
    expect(() => assertChainsSupported([{ id: 5, vm: 'wasm' as never }])).toThrow(/chain 5: no adapter for vm "wasm" yet \(this simulator runs: evm, svm, lvm, bvm\)/);
    // the configuration refuses it first, naming the field
    await expect(startSimulator({ env: {}, port: 0, log: () => undefined, chains: [{ id: 5, vm: 'wasm' as never }] })).rejects.toThrow(/chains\.0\.vm/);
  });
});

/** The cheat calls of the ChainAdapter interface, on a real Anvil through `control.chain(id)`. */
describe('chain cheat calls (control.chain)', () => {
  let sim: RunningSimulator;
  const CHAIN = 8453;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });
  const client = () => publicClientFor(sim, CHAIN);
  const transfer = (to: Address, value: bigint) => sendFrom(sim, CHAIN, sim.accounts[1]!.privateKey, { to, data: '0x', value });

  it('names an unknown chain id clearly', () => {
    expect(() => sim.control.chain(999)).toThrow(/no chain 999 in this simulator \(chains: 1, 8453, 42161\)/);
    expect(sim.control.chain(CHAIN)).toMatchObject({ chainId: CHAIN, vmType: 'evm' });
    expect(sim.control.chain(CHAIN).describe().httpRpcUrl).toBe(sim.chains.find((c) => c.id === CHAIN)!.rpcUrl);
  });

  it('mine(n) adds n blocks', async () => {
    const before = await client().getBlockNumber();
    await sim.control.chain(CHAIN).mine(3);
    expect(await client().getBlockNumber()).toBe(before + 3n);
  });

  it('snapshot / revert brings balances and height back', async () => {
    const chain = sim.control.chain(CHAIN);
    const to = '0x00000000000000000000000000000000000c0a01' as Address;
    const height = await client().getBlockNumber();
    const id = await chain.snapshot();
    await transfer(to, parseEther('1'));
    expect(await client().getBalance({ address: to })).toBe(parseEther('1'));
    await chain.revert(id);
    expect(await client().getBalance({ address: to })).toBe(0n);
    expect(await client().getBlockNumber()).toBe(height);
  });

  it('automine off keeps a transaction pending until mine()', async () => {
    const chain = sim.control.chain(CHAIN);
    await chain.setAutomine(false);
    try {
      const wallet = createWalletClient({ account: privateKeyToAccount(sim.accounts[2]!.privateKey as Hex), transport: http(chain.describe().httpRpcUrl) });
      const hash = await wallet.sendTransaction({ chain: null, to: '0x00000000000000000000000000000000000c0a02', value: 1n });
      await expect(client().getTransactionReceipt({ hash })).rejects.toThrow();
      expect(await chain.isPending(hash)).toBe(true);
      await chain.mine();
      expect((await client().getTransactionReceipt({ hash })).status).toBe('success');
      expect(await chain.isPending(hash)).toBe(false);
      expect(await chain.isPending(`0x${'ab'.repeat(32)}`)).toBe(false);
    } finally {
      await chain.setAutomine(true);
    }
  });

  it('setCode replaces an account’s code; the stablecoin’s issuer blocks an account, a transaction sent ahead of the pool is mined first', async () => {
    const chain = sim.control.chain(CHAIN);
    const target = '0x00000000000000000000000000000000000c0a04';
    await chain.setCode(target, '0x60006000fd');
    expect(await client().getCode({ address: target })).toBe('0x60006000fd');
    const usdc = chain.describe().erc20Currencies.find((currency) => currency.symbol === 'USDC')!;
    const blocked = '0x00000000000000000000000000000000000c0a05';
    await chain.setAutomine(false);
    try {
      const wallet = createWalletClient({ account: privateKeyToAccount(sim.accounts[2]!.privateKey as Hex), transport: http(chain.describe().httpRpcUrl) });
      const plain = await wallet.sendTransaction({ chain: null, to: '0x00000000000000000000000000000000000c0a06', value: 1n });
      const ahead = await evmChainOf(sim, CHAIN).fixtureContracts.setBlockedByIssuer(usdc, blocked, true, { wait: false, aheadOfPending: true });
      expect(ahead.status).toBe('sent');
      await chain.mine();
      const block = await client().getBlock({ blockTag: 'latest' });
      expect(block.transactions).toEqual([ahead.txHash, plain]);
    } finally {
      await chain.setAutomine(true);
    }
    const isBlocked = await client().readContract({ address: usdc.address, abi: [{ type: 'function', name: 'isBlocked', stateMutability: 'view', inputs: [{ name: 'a', type: 'address' }], outputs: [{ name: '', type: 'bool' }] }], functionName: 'isBlocked', args: [blocked] });
    expect(isBlocked).toBe(true);
    const weth = chain.describe().erc20Currencies.find((currency) => currency.symbol === 'WETH')!;
    await expect(evmChainOf(sim, CHAIN).fixtureContracts.setBlockedByIssuer(weth, blocked, true)).rejects.toThrow(/WETH on 8453 has no issuer blocklist/);
  });

  it('reorg(depth) replaces the last blocks: same height, new hashes, their transactions gone', async () => {
    const chain = sim.control.chain(CHAIN);
    const to = '0x00000000000000000000000000000000000c0a03' as Address;
    const hash = await transfer(to, 5n);
    const receipt = await client().getTransactionReceipt({ hash });
    const height = await client().getBlockNumber();
    await chain.reorg(Number(height - receipt.blockNumber) + 1);
    expect(await client().getBlockNumber()).toBe(height);
    expect((await client().getBlock({ blockNumber: receipt.blockNumber })).hash).not.toBe(receipt.blockHash);
    expect(await client().getBalance({ address: to })).toBe(0n);
  });

  it('setNextBlockTimestamp and increaseTime move block time', async () => {
    const chain = sim.control.chain(CHAIN);
    const latest = await client().getBlock();
    const target = Number(latest.timestamp) + 1000;
    await chain.setNextBlockTimestamp(target);
    await chain.mine();
    expect(Number((await client().getBlock()).timestamp)).toBe(target);
    await chain.increaseTime(500);
    await chain.mine();
    expect(Number((await client().getBlock()).timestamp)).toBeGreaterThanOrEqual(target + 500);
  });
});

describe('where intentsim start finds anvil', () => {
  it('searches PATH (read by the config) when there is no explicit path and no package binary', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-path-'));
    try {
      const fake = join(dir, 'anvil');
      writeFileSync(fake, '#!/bin/sh\nexit 0\n');
      chmodSync(fake, 0o755);
      const config = loadSimulatorConfig({ env: { PATH: `/nonexistent${delimiter}${dir}` } });
      expect(config.anvilSearchPath).toBe(`/nonexistent${delimiter}${dir}`);
      const query = anvilBinaryQuery(config);
      expect(resolveAnvilBinary({ ...query, packageResolver: () => undefined })).toBe(fake);
      // an explicit path still wins, and without PATH nothing is searched
      expect(anvilBinaryQuery({ anvilPath: fake, anvilSearchPath: '/x' })).toEqual({ explicitPath: fake, pathEnv: '/x' });
      expect(() => resolveAnvilBinary({ ...anvilBinaryQuery(loadSimulatorConfig({ env: {} })), packageResolver: () => undefined })).toThrow(/put anvil on PATH/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
