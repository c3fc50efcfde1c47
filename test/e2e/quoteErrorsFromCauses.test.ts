// covers: errorCode:AMOUNT_TOO_LOW, errorCode:DESTINATION_TX_FAILED, errorCode:INVALID_RECIPIENT
// covers: limit:same-chain swap minimum @ POST /quote/v2
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, getAddress, zeroAddress } from 'viem';
import { callRecorderArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { postJson } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { blockOnStablecoin, deployCallRecorder } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

/** SPEC §7.1: quote errors from their real causes, for every request type. */
describe('§7.1 quote errors from their causes', () => {
  let sim: RunningSimulator;
  const CHAIN = 8453;
  const OTHER = 42161;
  const addresses = (chainId: number) => evmChainOf(sim, chainId).contractAddresses;
  const user = () => sim.accounts[1]!.address;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const quote = (body: Record<string, unknown>) =>
    postJson(`${sim.baseUrl}/quote/v2`, { user: user(), originChainId: CHAIN, destinationChainId: CHAIN, originCurrency: zeroAddress, tradeType: 'EXACT_INPUT', ...body });

  describe('AMOUNT_TOO_LOW: a same-chain swap worth more than $0 and less than $0.05', () => {
    it('rejects 0.00001 ETH → USDC ($0.03) on one chain', async () => {
      const response = await quote({ destinationCurrency: addresses(CHAIN).stablecoin, amount: '10000000000000' });
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ errorCode: 'AMOUNT_TOO_LOW', statusCode: 400, message: 'same-chain swaps must be worth at least $0.05 (this one is worth $0.03)' });
    });

    it('rejects an EXACT_OUTPUT same-chain swap of 0.04 USDC', async () => {
      const response = await quote({ destinationCurrency: addresses(CHAIN).stablecoin, amount: '40000', tradeType: 'EXACT_OUTPUT' });
      expect(response.body.errorCode).toBe('AMOUNT_TOO_LOW');
    });

    it('accepts wraps and unwraps of the same dust amount (they carry no relayer fee)', async () => {
      const wrap = await quote({ destinationCurrency: addresses(CHAIN).wrappedNative, amount: '10000000000000' });
      expect(wrap.status).toBe(200);
      expect(wrap.body.details.currencyOut.amount).toBe('10000000000000');
      const unwrap = await quote({ originCurrency: addresses(CHAIN).wrappedNative, destinationCurrency: zeroAddress, amount: '10000000000000' });
      expect(unwrap.status).toBe(200);
    });

    it('accepts a same-chain quote with attached calls of the same dust value', async () => {
      const recorder = await deployCallRecorder(sim, CHAIN, sim.accounts[1]!.privateKey);
      const data = encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [1n] });
      const response = await quote({ destinationCurrency: zeroAddress, amount: '10000000000000', tradeType: 'EXACT_OUTPUT', txs: [{ to: recorder, value: '10000000000000', data }] });
      expect(response.status).toBe(200);
      expect(response.body.details.operation).toBe('call');
    });

    it('does not apply to a cross-chain swap of the same size (it fails on fees instead, with its own message)', async () => {
      const response = await quote({ destinationChainId: OTHER, destinationCurrency: addresses(OTHER).stablecoin, amount: '10000000000000' });
      expect(response.body).toMatchObject({ errorCode: 'AMOUNT_TOO_LOW', message: 'amount is too low to cover the fees of this route' });
    });
  });

  describe('DESTINATION_TX_FAILED: a genuine revert in the simulation of the fill', () => {
    it('an attached call that reverts', async () => {
      const recorder = await deployCallRecorder(sim, OTHER, sim.accounts[1]!.privateKey);
      const data = encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'fail', args: [7n] });
      const response = await quote({ destinationChainId: OTHER, destinationCurrency: zeroAddress, amount: '1000000000000000', tradeType: 'EXACT_OUTPUT', txs: [{ to: recorder, value: '0', data }] });
      expect(response.status).toBe(400);
      expect(response.body.errorCode).toBe('DESTINATION_TX_FAILED');
      expect(response.body.message).toMatch(/reverted in simulation on chain 42161/);
    });

    for (const [label, originCurrency] of [
      ['a stablecoin bridge', 'stablecoin'],
      ['a swap into the stablecoin', 'native'],
    ] as const) {
      it(`${label} to a recipient on the stablecoin's blocklist: the recipient cannot receive this token`, async () => {
        const blocked = getAddress('0x00000000000000000000000000000000000b10cc');
        await blockOnStablecoin(sim, OTHER, blocked);
        const response = await quote({
          destinationChainId: OTHER,
          recipient: blocked,
          originCurrency: originCurrency === 'native' ? zeroAddress : addresses(CHAIN).stablecoin,
          destinationCurrency: addresses(OTHER).stablecoin,
          amount: originCurrency === 'native' ? '10000000000000000' : '25000000',
        });
        expect(response.status).toBe(400);
        expect(response.body).toEqual({
          errorCode: 'DESTINATION_TX_FAILED',
          statusCode: 400,
          message: `recipient ${blocked} cannot receive this token (blocked by the token contract); use another recipient`,
        });
      });
    }
  });

  describe('INVALID_RECIPIENT for every request type', () => {
    const cases = [
      ['Bridge', { destinationChainId: OTHER, destinationCurrency: zeroAddress }],
      ['Crosschain Swap', { destinationChainId: OTHER, destinationCurrency: 'stablecoin' }],
      ['Same-chain Swap', { destinationCurrency: 'stablecoin' }],
      ['Send', { destinationCurrency: zeroAddress }],
      ['Wrap', { destinationCurrency: 'wrappedNative' }],
      ['Call', { destinationCurrency: zeroAddress, tradeType: 'EXACT_OUTPUT', txs: [{ to: '0x00000000000000000000000000000000000C0de1', value: '1' }] }],
    ] as const;
    it.each(cases)('%s to a token contract as recipient', async (_type, overrides) => {
      const destinationChainId = 'destinationChainId' in overrides ? overrides.destinationChainId : CHAIN;
      const resolve = (value: string) => (value === 'stablecoin' || value === 'wrappedNative' ? addresses(destinationChainId)[value] : value);
      const response = await quote({
        amount: '10000000000000000',
        ...overrides,
        destinationCurrency: resolve(overrides.destinationCurrency),
        recipient: addresses(destinationChainId).wrappedNative,
      });
      expect(response.status).toBe(400);
      expect(response.body.errorCode).toBe('INVALID_RECIPIENT');
    });
  });
});
