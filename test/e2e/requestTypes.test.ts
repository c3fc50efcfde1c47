// covers: endpoint:POST /quote/v2, status:success, transition:submitted->success, transition:pending->submitted
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, zeroAddress, type Address } from 'viem';
import { callRecorderArtifact, wrappedNativeArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { publicClientFor } from '../support/bridgeClient';
import { balanceOn, deployCallRecorder, quoteAndExecute, sendFrom, freshAddresses, SWAP_TEST_CHAINS } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

/**
 * SPEC §1.2 and §1.5: every request type, quoted over HTTP and executed on the local Anvil
 * chains, with the recipient's balance checked on chain. Each test pays a fresh recipient, so
 * its balance moves only by the fill.
 */
describe('every request type end to end', () => {
  let sim: RunningSimulator;
  const freshRecipient = freshAddresses(0xa000);
  const { ORIGIN, DESTINATION } = SWAP_TEST_CHAINS;
  const addresses = (chainId: number) => evmChainOf(sim, chainId).contractAddresses;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function run(params: {
    type: string;
    origin: number;
    destination: number;
    originCurrency: string;
    destinationCurrency: string;
    amount: string;
    tradeType: 'EXACT_INPUT' | 'EXPECTED_OUTPUT' | 'EXACT_OUTPUT';
    account?: number;
    txs?: unknown[];
  }) {
    const user = sim.accounts[params.account ?? 1]!;
    const recipient = freshRecipient();
    const before = await balanceOn(sim, params.destination, params.destinationCurrency, recipient);
    const result = await quoteAndExecute(sim, user.privateKey, {
      user: user.address,
      recipient,
      originChainId: params.origin,
      destinationChainId: params.destination,
      originCurrency: params.originCurrency,
      destinationCurrency: params.destinationCurrency,
      amount: params.amount,
      tradeType: params.tradeType,
      ...(params.txs ? { txs: params.txs } : {}),
    });
    const received = (await balanceOn(sim, params.destination, params.destinationCurrency, recipient)) - before;
    expect(result.status).toMatchObject({ status: 'success', failReason: 'N/A' });
    expect(sim.control.requests.get(result.requestId)!.quote.requestType).toBe(params.type);
    return { ...result, recipient, received, quotedOut: BigInt(result.quote.details.currencyOut.amount) };
  }

  for (const tradeType of ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const) {
    it(`Crosschain Swap ETH → USDC under ${tradeType}: the solver swaps on the destination pool`, async () => {
      const amount = tradeType === 'EXACT_INPUT' ? '100000000000000000' : '250000000'; // 0.1 ETH or 250 USDC
      const { quote, received, quotedOut } = await run({
        type: 'Crosschain Swap',
        origin: ORIGIN,
        destination: DESTINATION,
        originCurrency: zeroAddress,
        destinationCurrency: addresses(DESTINATION).stablecoin,
        amount,
        tradeType,
      });
      expect(quote.details.operation).toBe('swap');
      expect(quote.details.route.destination.router).toBe(addresses(DESTINATION).pool);
      expect(Number(quote.details.swapImpact.usd)).toBeLessThan(0);
      if (tradeType === 'EXACT_OUTPUT') expect(received).toBe(250_000_000n);
      else expect(received).toBeGreaterThanOrEqual(quotedOut);
      if (tradeType === 'EXACT_INPUT') expect(received).toBe(quotedOut);
    });
  }

  it('Crosschain Swap USDC → ETH: the pool output is unwrapped to native for the recipient', async () => {
    const { received, quotedOut } = await run({
      type: 'Crosschain Swap',
      origin: ORIGIN,
      destination: DESTINATION,
      originCurrency: addresses(ORIGIN).stablecoin,
      destinationCurrency: zeroAddress,
      amount: '300000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(received).toBe(quotedOut);
    expect(received).toBeGreaterThan(0n);
  });

  for (const tradeType of ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const) {
    it(`Same-chain Swap ETH → USDC under ${tradeType}`, async () => {
      const { received, quotedOut } = await run({
        type: 'Same-chain Swap',
        origin: ORIGIN,
        destination: ORIGIN,
        originCurrency: zeroAddress,
        destinationCurrency: addresses(ORIGIN).stablecoin,
        amount: tradeType === 'EXACT_INPUT' ? '50000000000000000' : '120000000',
        tradeType,
      });
      if (tradeType === 'EXACT_OUTPUT') expect(received).toBe(120_000_000n);
      else expect(received).toBeGreaterThanOrEqual(quotedOut);
    });
  }

  it('Same-chain Swap USDC → WETH (token to token)', async () => {
    const { received, quotedOut } = await run({
      type: 'Same-chain Swap',
      origin: ORIGIN,
      destination: ORIGIN,
      originCurrency: addresses(ORIGIN).stablecoin,
      destinationCurrency: addresses(ORIGIN).wrappedNative,
      amount: '500000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(received).toBe(quotedOut);
  });

  for (const tradeType of ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const) {
    it(`Send of native currency to another address under ${tradeType}`, async () => {
      const { quote, received, quotedOut } = await run({
        type: 'Send',
        origin: ORIGIN,
        destination: ORIGIN,
        originCurrency: zeroAddress,
        destinationCurrency: zeroAddress,
        amount: '30000000000000000',
        tradeType,
      });
      expect(quote.details.operation).toBe('send');
      expect(received).toBe(quotedOut);
    });
  }

  it('Send of the stablecoin', async () => {
    const { received } = await run({
      type: 'Send',
      origin: DESTINATION,
      destination: DESTINATION,
      originCurrency: addresses(DESTINATION).stablecoin,
      destinationCurrency: addresses(DESTINATION).stablecoin,
      amount: '42000000',
      tradeType: 'EXACT_OUTPUT',
    });
    expect(received).toBe(42_000_000n);
  });

  for (const tradeType of ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const) {
    it(`Wrap ETH → WETH under ${tradeType}, 1:1 with no relayer fee`, async () => {
      const { quote, received } = await run({
        type: 'Wrap',
        origin: ORIGIN,
        destination: ORIGIN,
        originCurrency: zeroAddress,
        destinationCurrency: addresses(ORIGIN).wrappedNative,
        amount: '20000000000000000',
        tradeType,
      });
      expect(quote.details.operation).toBe('wrap');
      expect(quote.details.currencyIn.amount).toBe('20000000000000000');
      expect(quote.fees.relayer.amount).toBe('0');
      expect(received).toBe(20_000_000_000_000_000n);
    });
  }

  it('Unwrap WETH → ETH through the wrapped-native contract', async () => {
    const user = sim.accounts[4]!;
    const wrapped = addresses(ORIGIN).wrappedNative;
    await sendFrom(sim, ORIGIN, user.privateKey, { to: wrapped, data: encodeFunctionData({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }), value: 10n ** 17n });
    for (const tradeType of ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT'] as const) {
      const { quote, received } = await run({
        type: 'Unwrap',
        origin: ORIGIN,
        destination: ORIGIN,
        originCurrency: wrapped,
        destinationCurrency: zeroAddress,
        amount: '10000000000000000',
        tradeType,
        account: 4,
      });
      expect(quote.details.operation).toBe('unwrap');
      expect(received).toBe(10_000_000_000_000_000n);
    }
  });
});

describe('Call requests: the fill executes the attached destination calls', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  for (const [label, origin, destination] of [
    ['cross-chain', 8453, 42161],
    ['same-chain', 42161, 42161],
  ] as const) {
    it(`a ${label} Call pays the call's value from the solver's fill and records the call on the target contract`, async () => {
      const user = sim.accounts[5]!;
      const recorder = await deployCallRecorder(sim, destination, user.privateKey);
      const value = 3_000_000_000_000_000n; // 0.003 ETH
      const { quote, status, requestId } = await quoteAndExecute(sim, user.privateKey, {
        user: user.address,
        originChainId: origin,
        destinationChainId: destination,
        originCurrency: zeroAddress,
        destinationCurrency: zeroAddress,
        amount: value.toString(),
        tradeType: 'EXACT_OUTPUT',
        txs: [{ to: recorder, value: value.toString(), data: encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [42n] }) }],
      });
      expect(status).toMatchObject({ status: 'success' });
      expect(quote.details.operation).toBe('call');
      expect(sim.control.requests.get(requestId)!.quote.requestType).toBe('Call');
      const read = (functionName: 'callCount' | 'lastValue' | 'lastNote' | 'lastCaller') =>
        publicClientFor(sim, destination).readContract({ address: recorder, abi: callRecorderArtifact.abi, functionName });
      expect(await read('callCount')).toBe(1n);
      expect(await read('lastValue')).toBe(value);
      expect(await read('lastNote')).toBe(42n);
      expect(await read('lastCaller')).toBe(evmChainOf(sim, destination).contractAddresses.serviceReceiver);
    });
  }

  it('a Call from the stablecoin swaps into native on the destination pool, then calls with that value', async () => {
    const user = sim.accounts[6]!;
    const recorder = await deployCallRecorder(sim, 42161, user.privateKey);
    const value = 10n ** 15n;
    const { status } = await quoteAndExecute(sim, user.privateKey, {
      user: user.address,
      originChainId: 8453,
      destinationChainId: 42161,
      originCurrency: evmChainOf(sim, 8453).contractAddresses.stablecoin,
      destinationCurrency: zeroAddress,
      amount: value.toString(),
      tradeType: 'EXACT_OUTPUT',
      txs: [{ to: recorder, value: value.toString(), data: encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [1n] }) }],
    });
    expect(status.status).toBe('success');
    expect(await publicClientFor(sim, 42161).readContract({ address: recorder, abi: callRecorderArtifact.abi, functionName: 'lastValue' })).toBe(value);
  });
});
