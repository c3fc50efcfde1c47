import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, erc20Abi, getAddress, zeroAddress, type Address, type Hex } from 'viem';
import { callRecorderArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RequestType } from '../../src/domain/request/requestRecord';
import type { RunningSimulator } from '../../src/simulator';
import { publicClientFor, type QuoteBody } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { deployCallRecorder, freshAddresses, quoteAndExecute, SWAP_TEST_CHAINS } from '../support/swapClient';

/**
 * "What a record says happened must be what the chain shows": for every request type, each
 * delivery the fill's `outTxs` entry lists is exactly the balance change of that party in that
 * currency across the fill's block, and the recipient's change is `data.amount`.
 */
describe('records match the chain', () => {
  let sim: RunningSimulator;
  const { ORIGIN, DESTINATION } = SWAP_TEST_CHAINS;
  const fresh = freshAddresses(0xd100);
  const addresses = (chainId: number) => evmChainOf(sim, chainId).contractAddresses;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function balanceAt(chainId: number, currency: Address, owner: Address, blockNumber: bigint): Promise<bigint> {
    const client = publicClientFor(sim, chainId);
    if (currency === zeroAddress) return client.getBalance({ address: owner, blockNumber });
    return client.readContract({ address: currency, abi: erc20Abi, functionName: 'balanceOf', args: [owner], blockNumber });
  }

  async function expectFillMatchesChain(type: RequestType, body: (recipient: Address) => Omit<QuoteBody, 'user'>, account: number) {
    const user = sim.accounts[account]!;
    const recipient = getAddress(fresh());
    const { requestId, status, quote } = await quoteAndExecute(sim, user.privateKey, { user: user.address, ...body(recipient) } as QuoteBody);
    expect(status.status).toBe('success');
    const record = sim.control.requests.get(requestId)!;
    expect(record.quote.requestType).toBe(type);
    const fill = record.outTxs.find((tx) => tx.type === 'fill')!;
    const deliveries = fill.data.deliveries ?? [];
    expect(deliveries.length).toBeGreaterThan(0);
    const block = BigInt(fill.block);
    // the fill is the only transaction of its block (automine), so the block's change is the fill's
    expect((await publicClientFor(sim, fill.chainId).getBlock({ blockNumber: block })).transactions).toEqual([fill.txHash]);
    for (const delivery of deliveries) {
      const change = (await balanceAt(fill.chainId, delivery.currency, delivery.to, block)) - (await balanceAt(fill.chainId, delivery.currency, delivery.to, block - 1n));
      expect(change, `${delivery.to} in ${delivery.currency}`).toBe(delivery.amount);
    }
    // the recipient's own change in the output currency is the entry's amount
    const currencyOut = getAddress(record.quote.currencyOut.address);
    const recipientChange = (await balanceAt(fill.chainId, currencyOut, recipient, block)) - (await balanceAt(fill.chainId, currencyOut, recipient, block - 1n));
    expect(getAddress(fill.data.to)).toBe(recipient);
    expect(fill.data.amount).toBe(recipientChange);
    return { record, fill, deliveries, recipient, quote };
  }

  it('Bridge (native and stablecoin), Crosschain Swap, Same-chain Swap, Send, Wrap', async () => {
    const cases: Array<[RequestType, (recipient: Address) => Omit<QuoteBody, 'user'>]> = [
      ['Bridge', (recipient) => ({ recipient, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '20000000000000000', tradeType: 'EXACT_INPUT' })],
      ['Bridge', (recipient) => ({ recipient, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: addresses(ORIGIN).stablecoin, destinationCurrency: addresses(DESTINATION).stablecoin, amount: '30000000', tradeType: 'EXACT_OUTPUT' })],
      ['Crosschain Swap', (recipient) => ({ recipient, originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: zeroAddress, destinationCurrency: addresses(DESTINATION).stablecoin, amount: '100000000000000000', tradeType: 'EXACT_INPUT' })],
      ['Same-chain Swap', (recipient) => ({ recipient, originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: zeroAddress, destinationCurrency: addresses(ORIGIN).stablecoin, amount: '50000000000000000', tradeType: 'EXACT_INPUT' })],
      ['Send', (recipient) => ({ recipient, originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '30000000000000000', tradeType: 'EXACT_INPUT' })],
      ['Wrap', (recipient) => ({ recipient, originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: zeroAddress, destinationCurrency: addresses(ORIGIN).wrappedNative, amount: '40000000000000000', tradeType: 'EXACT_INPUT' })],
    ];
    let account = 1;
    for (const [type, body] of cases) {
      const { deliveries, recipient } = await expectFillMatchesChain(type, body, account++);
      // nothing but the recipient gets anything from these
      expect(deliveries.map((d) => d.to)).toEqual([recipient]);
    }
  });

  it('a Call: the call target got the value (the record says so), the recipient nothing', async () => {
    const user = sim.accounts[7]!;
    const recorder = await deployCallRecorder(sim, DESTINATION, user.privateKey);
    const value = 2_000_000_000_000_000n;
    const { deliveries, fill, record, quote } = await expectFillMatchesChain(
      'Call',
      (recipient) => ({
        recipient,
        originChainId: ORIGIN,
        destinationChainId: DESTINATION,
        originCurrency: zeroAddress,
        destinationCurrency: zeroAddress,
        amount: value.toString(),
        tradeType: 'EXACT_OUTPUT',
        txs: [{ to: recorder, value: value.toString(), data: encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [7n] }) }],
      }),
      7,
    );
    expect(deliveries).toEqual([{ to: getAddress(recorder), currency: zeroAddress, amount: value }]);
    expect(fill.data.amount).toBe(0n);
    // the order the quote committed to carries the call
    expect(record.quote.calls).toEqual([{ to: getAddress(recorder), value, data: expect.stringMatching(/^0x/) as Hex }]);
    const orderCalls = (quote.protocol as { v2: { orderData: { output: { calls: unknown[] } } } }).v2.orderData.output.calls;
    expect(orderCalls).toEqual([{ to: getAddress(recorder), value: value.toString(), data: record.quote.calls![0]!.data }]);
  });

  it('a gas top-up: the recipient gets the stablecoin and the native top-up, both listed', async () => {
    const { deliveries, recipient } = await expectFillMatchesChain(
      'Bridge',
      (recipient) => ({
        recipient,
        originChainId: ORIGIN,
        destinationChainId: DESTINATION,
        originCurrency: addresses(ORIGIN).stablecoin,
        destinationCurrency: addresses(DESTINATION).stablecoin,
        amount: '50000000',
        tradeType: 'EXACT_INPUT',
        topupGas: true,
      }),
      8,
    );
    expect(deliveries.map((d) => [d.to, d.currency])).toEqual(
      expect.arrayContaining([
        [recipient, getAddress(addresses(DESTINATION).stablecoin)],
        [recipient, zeroAddress],
      ]),
    );
    expect(deliveries.find((d) => d.currency === zeroAddress)!.amount).toBeGreaterThan(0n);
  });
});
