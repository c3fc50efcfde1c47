// covers: operation:currencies (two versions), operation:token price, operation:swap sources, operation:chains liquidity, operation:config
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, formatUnits, zeroAddress, type Address } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, postJson, publicClientFor } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';
import {
  ChainsHealthSchema,
  ChainsLiquiditySchema,
  ConfigSchema,
  ConfigV2Schema,
  CurrenciesV1Schema,
  CurrenciesV2Schema,
  SwapSourcesSchema,
  TokenPriceSchema,
  TokenPriceV2Schema,
  expectPublishedShape,
} from '../support/publishedApiSchemas';
import { balanceOn, swapOnPool } from '../support/swapClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

/** The look-ups of the service's published API, answered from the running chains (issue 14 part 5). */
describe('look-ups', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const chainIds = () => sim.chains.map((chain) => chain.id);
  const contracts = (chainId: number) => evmChainOf(sim, chainId).contractAddresses;
  const solverOf = (chainId: number) => evmChainOf(sim, chainId).describe().solverAddress as Address;
  const currenciesV2 = async (body: unknown) => {
    const answer = await postJson(`${sim.baseUrl}/currencies/v2`, body);
    expect(answer.status).toBe(200);
    return expectPublishedShape(CurrenciesV2Schema, answer.body);
  };

  describe('POST /currencies/v2 and /currencies/v1', () => {
    it('lists every deployed currency of every chain, with its real address', async () => {
      const all = await currenciesV2({});
      expect(all).toHaveLength(chainIds().length * 3);
      for (const chainId of chainIds()) {
        const onChain = all.filter((entry) => entry.chainId === chainId);
        expect(onChain.map((entry) => entry.address)).toEqual([zeroAddress, contracts(chainId).stablecoin, contracts(chainId).wrappedNative]);
        expect(onChain.map((entry) => [entry.vmType, entry.metadata.isNative, entry.metadata.verified])).toEqual([
          ['evm', true, true],
          ['evm', false, true],
          ['evm', false, true],
        ]);
      }
    });

    it('filters by term, chain, address, tokens, currency id and verified flag; limit cuts the list', async () => {
      const [first, second] = chainIds() as [number, number];
      const usdc = contracts(first).stablecoin;
      expect((await currenciesV2({ term: 'usd' })).map((e) => [e.symbol, e.chainId])).toEqual(chainIds().map((id) => ['USDC', id]));
      expect((await currenciesV2({ term: 'eth' }))[0]!.symbol).toBe('ETH'); // exact symbol matches first, then WETH by name
      expect((await currenciesV2({ term: usdc.toLowerCase() })).every((e) => e.address === usdc)).toBe(true);
      expect((await currenciesV2({ chainIds: [second] })).map((e) => e.chainId)).toEqual([second, second, second]);
      expect(await currenciesV2({ chainIds: [first], address: usdc })).toMatchObject([{ chainId: first, symbol: 'USDC' }]);
      expect((await currenciesV2({ chainIds: [first], address: usdc, includeAllChains: true })).map((e) => e.chainId)).toEqual(chainIds());
      expect(await currenciesV2({ tokens: [`${second}:${usdc.toLowerCase()}`] })).toMatchObject([{ chainId: second, address: usdc }]);
      expect((await currenciesV2({ currencyId: 'weth' })).map((e) => e.symbol)).toEqual(chainIds().map(() => 'WETH'));
      expect(await currenciesV2({ verified: true })).toHaveLength(chainIds().length * 3);
      expect(await currenciesV2({ verified: false })).toEqual([]);
      expect(await currenciesV2({ limit: 2 })).toHaveLength(2);
      expect(await currenciesV2({ term: 'no such token' })).toEqual([]);
    });

    it('v1 answers the same currencies grouped across chains', async () => {
      const answer = await postJson(`${sim.baseUrl}/currencies/v1`, { term: 'usdc' });
      expect(answer.status).toBe(200);
      const groups = expectPublishedShape(CurrenciesV1Schema, answer.body);
      expect(groups).toHaveLength(1);
      expect(groups[0]!.map((entry) => [entry.groupID, entry.chainId])).toEqual(chainIds().map((id) => ['usdc', id]));
      const everything = expectPublishedShape(CurrenciesV1Schema, (await postJson(`${sim.baseUrl}/currencies/v1`, {})).body);
      expect(everything.map((group) => group[0]!.groupID)).toEqual(['eth', 'usdc', 'weth']);
    });

    it('bad bodies are 400 with an errorCode', async () => {
      for (const body of [{ chainIds: 'x' }, { limit: 0 }, { limit: 1.5 }, { tokens: ['nope'] }, [1, 2], { verified: 'yes' }]) {
        const answer = await postJson(`${sim.baseUrl}/currencies/v2`, body);
        expect(answer.status, JSON.stringify(body)).toBe(400);
        expect(answer.body).toMatchObject({ errorCode: 'INVALID_INPUT_PARAMS', message: expect.any(String) });
      }
    });
  });

  describe('GET /currencies/token/price', () => {
    const price = async (chainId: number, address: string) => {
      const v1 = await getJson(`${sim.baseUrl}/currencies/token/price?chainId=${chainId}&address=${address}`);
      const v2 = await getJson(`${sim.baseUrl}/currencies/token/price/v2?chainId=${chainId}&address=${address}`);
      expect([v1.status, v2.status]).toEqual([200, 200]);
      const { price: asNumber } = expectPublishedShape(TokenPriceSchema, v1.body);
      const { price: asString } = expectPublishedShape(TokenPriceV2Schema, v2.body);
      expect(asNumber).toBe(Number(asString));
      return asString;
    };

    it('prices the stablecoin from the fixture and the native from the pool, which a swap moves', async () => {
      const chainId = chainIds()[1]!;
      const { stablecoin, wrappedNative, pool } = contracts(chainId);
      expect(await price(chainId, stablecoin)).toBe('1');
      expect(await price(chainId, zeroAddress)).toBe('3000'); // the pool is seeded at the fixture price

      await swapOnPool(sim, chainId, sim.accounts[6]!.privateKey, wrappedNative, 500n * 10n ** 18n);
      const client = publicClientFor(sim, chainId);
      const reserve = (token: Address) => client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [pool] });
      const [weth, usdc] = [await reserve(wrappedNative), await reserve(stablecoin)];
      const expected = formatUnits((usdc * 10n ** 6n * 10n ** 18n) / (weth * 10n ** 6n), 6);
      expect(Number(expected)).toBeLessThan(3000);
      expect(await price(chainId, zeroAddress)).toBe(expected);
      expect(await price(chainId, wrappedNative)).toBe(expected);
      expect(await price(chainId, stablecoin)).toBe('1');
    });

    it('an unknown chain or token is 400', async () => {
      const unknownChain = await getJson(`${sim.baseUrl}/currencies/token/price?chainId=999999&address=${zeroAddress}`);
      expect(unknownChain).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });
      const unknownToken = await getJson(`${sim.baseUrl}/currencies/token/price?chainId=${chainIds()[0]}&address=0x${'12'.repeat(20)}`);
      expect(unknownToken).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CURRENCY' } });
      const missing = await getJson(`${sim.baseUrl}/currencies/token/price?chainId=${chainIds()[0]}`);
      expect(missing).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
    });
  });

  describe('chains: liquidity, health, swap sources', () => {
    it('GET /chains/liquidity answers the solver balances read from the chain', async () => {
      const chainId = chainIds()[0]!;
      const answer = await getJson(`${sim.baseUrl}/chains/liquidity?chainId=${chainId}`);
      expect(answer.status).toBe(200);
      const { liquidity } = expectPublishedShape(ChainsLiquiditySchema, answer.body);
      expect(liquidity.map((entry) => entry.currencyId)).toEqual(['eth', 'usdc', 'weth']);
      for (const entry of liquidity) {
        expect(BigInt(entry.balance)).toBe(await balanceOn(sim, chainId, entry.address, solverOf(chainId)));
      }
      const usdc = liquidity.find((entry) => entry.symbol === 'USDC')!;
      expect(usdc.amountUsd).toBe(formatUnits(BigInt(usdc.balance), 6));
      expect(await getJson(`${sim.baseUrl}/chains/liquidity`)).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
      expect(await getJson(`${sim.baseUrl}/chains/liquidity?chainId=5`)).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });
    });

    it('GET /chains/health probes the nodes; GET /swap-sources names the pools', async () => {
      expect(expectPublishedShape(ChainsHealthSchema, (await getJson(`${sim.baseUrl}/chains/health`)).body)).toEqual({ healthy: true });
      expect((await getJson(`${sim.baseUrl}/chains/health?chainId=${chainIds()[1]}`)).body).toEqual({ healthy: true });
      expect(await getJson(`${sim.baseUrl}/chains/health?chainId=abc`)).toMatchObject({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS' } });
      const sources = expectPublishedShape(SwapSourcesSchema, (await getJson(`${sim.baseUrl}/swap-sources?chainId=${chainIds()[0]}`)).body);
      expect(sources).toEqual({ sources: ['intentsim-constant-product'] });
      expect((await getJson(`${sim.baseUrl}/swap-sources`)).body).toEqual(sources);
      expect(await getJson(`${sim.baseUrl}/swap-sources?chainId=7`)).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_CHAIN' } });
    });
  });

  describe('GET /config and /config/v2', () => {
    it('answers the user and solver balances of the route, read from the chains', async () => {
      const [origin, destination] = chainIds() as [number, number];
      const user = sim.accounts[7]!.address as Address;
      const answer = await getJson(`${sim.baseUrl}/config?originChainId=${origin}&destinationChainId=${destination}&user=${user}`);
      expect(answer.status).toBe(200);
      const config = expectPublishedShape(ConfigSchema, answer.body);
      const userBalance = await balanceOn(sim, origin, zeroAddress, user);
      const solverBalance = await balanceOn(sim, destination, zeroAddress, solverOf(destination));
      expect(config).toMatchObject({ enabled: true, supportsExternalLiquidity: false, user: { balance: String(userBalance) }, solver: { address: solverOf(destination), balance: String(solverBalance), capacityPerRequest: String(solverBalance) } });
      const most = BigInt(config.user!.maxBridgeAmount);
      expect(most > 0n && most < userBalance).toBe(true); // less the deposit's gas

      const usdc = contracts(origin).stablecoin;
      const byAddress = expectPublishedShape(ConfigSchema, (await getJson(`${sim.baseUrl}/config?originChainId=${origin}&destinationChainId=${destination}&user=${user}&currency=${usdc}`)).body);
      const userUsdc = await balanceOn(sim, origin, usdc, user);
      expect(byAddress.user).toEqual({ balance: String(userUsdc), maxBridgeAmount: String(userUsdc) });
      expect(byAddress.solver.balance).toBe(String(await balanceOn(sim, destination, contracts(destination).stablecoin, solverOf(destination))));

      const v2 = expectPublishedShape(ConfigV2Schema, (await getJson(`${sim.baseUrl}/config/v2?originChainId=${origin}&destinationChainId=${destination}&currency=usdc`)).body);
      expect(v2.user).toBeUndefined();
      expect(v2).toMatchObject({ enabled: true, solver: { balance: byAddress.solver.balance } });
      expect(BigInt(v2.fee) > 0n).toBe(true);
      const unknownId = expectPublishedShape(ConfigV2Schema, (await getJson(`${sim.baseUrl}/config/v2?originChainId=${origin}&destinationChainId=${destination}&currency=pol`)).body);
      expect(unknownId).toMatchObject({ enabled: false, solver: { balance: '0' } });
    });

    it('bad queries are 400', async () => {
      const [origin, destination] = chainIds() as [number, number];
      for (const query of [`originChainId=${origin}`, `originChainId=${origin}&destinationChainId=3`, `originChainId=${origin}&destinationChainId=${destination}&user=nope`]) {
        const answer = await getJson(`${sim.baseUrl}/config?${query}`);
        expect(answer.status, query).toBe(400);
        expect(answer.body.errorCode).toEqual(expect.any(String));
      }
    });
  });
});
