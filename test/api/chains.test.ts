import { callJsonRpc } from '../../src/chains/evm/callJsonRpc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublicClient, erc20Abi, getAddress, http, isAddress, zeroAddress, type Address } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { getJson } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:GET /chains

let sim: RunningSimulator;
let chains: any[];

beforeAll(async () => {
  sim = await sharedTestSimulator();
  const response = await getJson(`${sim.baseUrl}/chains`);
  expect(response.status).toBe(200);
  chains = response.body.chains;
});
afterAll(async () => {
  await sim?.stop();
});

/** Every §2.1 field, with the type it must have. */
const CHAIN_FIELDS: Record<string, string> = {
  id: 'number',
  name: 'string',
  displayName: 'string',
  httpRpcUrl: 'string',
  wsRpcUrl: 'string',
  explorerUrl: 'string',
  explorerName: 'string',
  explorerPaths: 'object',
  depositEnabled: 'boolean',
  tokenSupport: 'string',
  disabled: 'boolean',
  partialDisableLimit: 'number',
  blockProductionLagging: 'boolean',
  currency: 'object',
  withdrawalFee: 'number',
  depositFee: 'number',
  surgeEnabled: 'boolean',
  featuredTokens: 'array',
  erc20Currencies: 'array',
  solverCurrencies: 'array',
  iconUrl: 'string',
  contracts: 'object',
  vmType: 'string',
  baseChainId: 'number',
  solverAddresses: 'array',
  tags: 'array',
  protocol: 'object',
};

function typeOf(value: unknown): string {
  return Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
}

function chain(id: number): any {
  const found = chains.find((c) => c.id === id);
  if (!found) throw new Error(`GET /chains has no chain ${id}`);
  return found;
}

describe('GET /chains (SPEC §2.1, §4.4)', () => {
  it('lists every chain the simulator runs, once each', () => {
    expect(chains.map((c) => c.id)).toEqual(sim.chains.map((c) => c.id));
    expect(chains.map((c) => c.id).sort((a, b) => a - b)).toEqual([1, 8453, 42161]);
  });

  it('every chain has every §2.1 field with its type', () => {
    for (const c of chains) {
      for (const [field, type] of Object.entries(CHAIN_FIELDS)) {
        expect(typeOf(c[field]), `chain ${c.id} field ${field}`).toBe(type);
      }
      expect(typeof c.explorerPaths.transaction).toBe('string');
      expect(c.explorerPaths.transaction).toContain('{TX_HASH}');
    }
  });

  it('names, the EVM vm type, status flags and base chain', () => {
    expect(chains.map((c) => [c.id, c.name, c.displayName, c.vmType, c.baseChainId])).toEqual([
      [1, 'ethereum', 'Ethereum', 'evm', 1],
      [8453, 'base', 'Base', 'evm', 1],
      [42161, 'arbitrum', 'Arbitrum One', 'evm', 1],
    ]);
    for (const c of chains) {
      expect(c).toMatchObject({ depositEnabled: true, disabled: false, blockProductionLagging: false, tokenSupport: 'All' });
    }
  });

  it('httpRpcUrl is the real local node: it answers eth_chainId with the chain id', async () => {
    for (const c of chains) {
      expect(c.httpRpcUrl).toBe(evmChainOf(sim, c.id).rpcUrl);
      const result = (await callJsonRpc(c.httpRpcUrl, 'eth_chainId')) as string;
      expect(Number(BigInt(result)), `chain ${c.id}`).toBe(c.id);
    }
  });

  it('explorerUrl is the simulator\'s own explorer for the chain (absolute), and explorerPaths.transaction is an EVM /tx/ path that opens a page', async () => {
    for (const c of chains) {
      expect(c.explorerUrl).toBe(`${sim.baseUrl}/explorer/${c.id}`);
      expect(c.explorerName).toBe('intentsim explorer');
      expect(c.explorerPaths).toEqual({ transaction: '/tx/{TX_HASH}', address: '/address/{ADDRESS}', token: '/address/{ADDRESS}', block: '/block/{BLOCK}' });
      const page = await fetch(c.explorerUrl + c.explorerPaths.transaction.replace('{TX_HASH}', `0x${'ab'.repeat(32)}`));
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('wsRpcUrl is a websocket URL on the same node', () => {
    for (const c of chains) {
      expect(c.wsRpcUrl).toMatch(/^wss?:\/\//);
      expect(new URL(c.wsRpcUrl).port).toBe(new URL(c.httpRpcUrl).port);
    }
  });

  it('every contract address has code on that chain, and the depository matches protocol.v2', async () => {
    for (const c of chains) {
      const client = evmChainOf(sim, c.id).publicClient;
      const { v3, ...flat } = c.contracts;
      const addresses: Record<string, string> = { ...flat, 'v3.erc20Router': v3.erc20Router, 'v3.approvalProxy': v3.approvalProxy };
      expect(Object.keys(addresses).sort()).toEqual(
        ['approvalProxy', 'erc20Router', 'multicall3', 'multicaller', 'onlyOwnerMulticaller', 'serviceReceiver', 'v3.approvalProxy', 'v3.erc20Router'].sort(),
      );
      for (const [name, address] of Object.entries(addresses)) {
        expect(isAddress(address, { strict: true }), `${c.id} ${name}`).toBe(true);
        const code = await client.getCode({ address: address as Address });
        expect(code && code.length > 2, `chain ${c.id} contract ${name} at ${address} has code`).toBe(true);
      }
      expect(c.protocol.v2).toEqual({ chainId: c.name, depository: evmChainOf(sim, c.id).contractAddresses.depository });
      expect(c.contracts.serviceReceiver).toBe(evmChainOf(sim, c.id).contractAddresses.serviceReceiver);
      const depositoryCode = await client.getCode({ address: c.protocol.v2.depository });
      expect(depositoryCode && depositoryCode.length > 2).toBe(true);
    }
  });

  it('solverAddresses is the solver wallet, the same on every chain', () => {
    for (const c of chains) expect(c.solverAddresses).toEqual([sim.control.solverAddress]);
  });

  it('currency is the native currency with 18 decimals at the zero address', () => {
    for (const c of chains) {
      expect(c.currency).toEqual({ id: 'eth', symbol: 'ETH', name: 'Ether', address: zeroAddress, decimals: 18, supportsBridging: true });
    }
  });

  it('erc20Currencies include the deployed USDC with 6 decimals, and each entry carries its fee fields', async () => {
    for (const c of chains) {
      const usdcAddress = evmChainOf(sim, c.id).contractAddresses.stablecoin;
      const usdc = c.erc20Currencies.find((t: any) => t.symbol === 'USDC');
      expect(usdc).toEqual({
        id: 'usdc',
        symbol: 'USDC',
        name: 'USD Coin',
        address: usdcAddress,
        decimals: 6,
        supportsBridging: true,
        withdrawalFee: 0,
        depositFee: 0,
        surgeEnabled: false,
      });
      for (const token of c.erc20Currencies) {
        expect(token).toMatchObject({ withdrawalFee: 0, depositFee: 0, surgeEnabled: false });
        // the token really is there with what the API says about it
        const client = evmChainOf(sim, c.id).publicClient;
        const [decimals, symbol] = await Promise.all([
          client.readContract({ address: token.address, abi: erc20Abi, functionName: 'decimals' }),
          client.readContract({ address: token.address, abi: erc20Abi, functionName: 'symbol' }),
        ]);
        expect([decimals, symbol]).toEqual([token.decimals, token.symbol]);
      }
    }
  });

  it('featuredTokens and solverCurrencies list the native currency and the ERC-20s', () => {
    for (const c of chains) {
      const expected = [zeroAddress, ...c.erc20Currencies.map((t: any) => t.address)];
      expect(c.featuredTokens.map((t: any) => t.address)).toEqual(expected);
      expect(c.solverCurrencies.map((t: any) => t.address)).toEqual(expected);
      for (const token of c.featuredTokens) expect(typeof token.metadata.logoURI).toBe('string');
      for (const token of c.solverCurrencies) expect(Object.keys(token).sort()).toEqual(['address', 'decimals', 'id', 'name', 'symbol']);
    }
  });

  it('contract addresses are the same on every chain (one deployer, same nonces)', () => {
    const [first, ...rest] = chains;
    for (const c of rest) {
      expect(c.contracts).toEqual(first.contracts);
      expect(getAddress(c.protocol.v2.depository)).toBe(getAddress(first.protocol.v2.depository));
    }
  });

  it('an integrator can build a working viem client from the chain entry alone', async () => {
    const c = chain(8453);
    const client = createPublicClient({ transport: http(c.httpRpcUrl) });
    expect(await client.getChainId()).toBe(8453);
    const usdc = c.erc20Currencies.find((t: any) => t.symbol === 'USDC');
    const balance = await client.readContract({ address: usdc.address, abi: erc20Abi, functionName: 'balanceOf', args: [sim.accounts[0]!.address as Address] });
    expect(balance).toBeGreaterThan(0n);
  });
});
