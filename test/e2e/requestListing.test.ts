import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:GET /requests/v3, status:success, status:refund, status:waiting, failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL

/**
 * GET /requests/v3 over requests made by real flows: a native bridge filled on Anvil, an
 * underpaid EXACT_OUTPUT deposit refunded from the depository, and a quote never paid. Each
 * record's chain facts (hashes, blocks, fees, timestamps) come from the chains themselves.
 */
describe('GET /requests/v3 over real bridges and refunds', () => {
  let sim: RunningSimulator;
  let secondKey: string;
  const ids: Record<'bridge' | 'refund' | 'swap' | 'unpaid', Hex> = {} as never;
  let depositHash: Hex;
  let refundDepositHash: Hex;

  async function quote(body: Record<string, unknown>, apiKey?: string) {
    const response = await fetch(`${sim.baseUrl}/quote/v2`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-api-key': apiKey } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as any;
  }

  async function list(query: string, apiKey = sim.apiKey) {
    // a virtual second apart, so the 20 rps limit never interferes
    sim.control.clock.advance(1000);
    const response = await fetch(`${sim.baseUrl}/requests/v3?${query}`, { headers: { 'x-api-key': apiKey } });
    return { status: response.status, body: (await response.json()) as any };
  }

  const idsOf = (body: { requests: Array<{ id: string }> }) => body.requests.map((r) => r.id);

  beforeAll(async () => {
    sim = await sharedTestSimulator();
    const created = await fetch(`${sim.baseUrl}/admin/api-keys`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"second"}' });
    secondKey = ((await created.json()) as { apiKey: string }).apiKey;
    const [alice, bob] = [sim.accounts[4]!, sim.accounts[5]!];

    // 1. a native bridge 1 → 8453 with the default key, filled
    const bridgeQuote = await quote(
      { user: alice.address, recipient: bob.address, originChainId: 1, destinationChainId: 8453, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '30000000000000000', tradeType: 'EXACT_INPUT', referrer: 'listing-test' },
      sim.apiKey,
    );
    ids.bridge = bridgeQuote.steps[0].requestId;
    [depositHash] = (await executeQuoteSteps(sim, alice.privateKey as Hex, bridgeQuote)) as [Hex];
    expect((await waitForSettledStatus(sim.baseUrl, ids.bridge)).status).toBe('success');

    // 2. an underpaid EXACT_OUTPUT deposit 8453 → 42161 with the second key, refunded
    const refundQuote = await quote(
      { user: bob.address, originChainId: 8453, destinationChainId: 42161, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '20000000000000000', tradeType: 'EXACT_OUTPUT' },
      secondKey,
    );
    ids.refund = refundQuote.steps[0].requestId;
    const base = evmChainOf(sim, 8453);
    const wallet = createWalletClient({ account: privateKeyToAccount(bob.privateKey as Hex), chain: base.viemChain(), transport: http(base.rpcUrl) });
    refundDepositHash = await wallet.sendTransaction({
      to: base.contractAddresses.depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [bob.address as Address, ids.refund] }),
      value: BigInt(refundQuote.details.currencyIn.amount) - 1n,
    });
    await publicClientFor(sim, 8453).waitForTransactionReceipt({ hash: refundDepositHash, pollingInterval: 5 });
    expect((await waitForSettledStatus(sim.baseUrl, ids.refund)).status).toBe('refund');

    // 3. a crosschain swap, ETH on 8453 → USDC on 1 through the destination pool, without a key
    const swapper = sim.accounts[6]!;
    const swapQuote = await quote({ user: swapper.address, originChainId: 8453, destinationChainId: 1, originCurrency: zeroAddress, destinationCurrency: evmChainOf(sim, 1).contractAddresses.stablecoin, amount: '10000000000000000', tradeType: 'EXACT_INPUT' });
    ids.swap = swapQuote.steps.at(-1).requestId;
    await executeQuoteSteps(sim, swapper.privateKey as Hex, swapQuote);
    expect((await waitForSettledStatus(sim.baseUrl, ids.swap)).status).toBe('success');

    // 4. a quote never paid, without a key
    ids.unpaid = (await quote({ user: alice.address, originChainId: 42161, destinationChainId: 1, originCurrency: zeroAddress, destinationCurrency: zeroAddress, amount: '10000000000000000', tradeType: 'EXACT_INPUT' })).steps[0].requestId;
  });

  afterAll(async () => {
    await sim?.stop();
  });

  it('lists every request newest first, each with the facts its chains recorded', async () => {
    const { status, body } = await list('');
    expect(status).toBe(200);
    expect(idsOf(body)).toEqual([ids.unpaid, ids.swap, ids.refund, ids.bridge]);
    const bridge = body.requests[3];
    const depositReceipt = await publicClientFor(sim, 1).getTransactionReceipt({ hash: depositHash });
    expect(bridge).toMatchObject({ status: 'success', requestType: 'Bridge', sender: sim.accounts[4]!.address, recipient: sim.accounts[5]!.address });
    expect(bridge.data.inTxs).toEqual([
      expect.objectContaining({ txHash: depositHash, type: 'deposit', chainId: 1, block: Number(depositReceipt.blockNumber), fee: (depositReceipt.gasUsed * depositReceipt.effectiveGasPrice).toString(), status: 'success' }),
    ]);
    expect(bridge.data.outTxs).toEqual([expect.objectContaining({ type: 'fill', chainId: 8453, status: 'success' })]);
    const fillReceipt = await publicClientFor(sim, 8453).getTransactionReceipt({ hash: bridge.data.outTxs[0].txHash });
    expect(bridge.data.outTxs[0].block).toBe(Number(fillReceipt.blockNumber));
    expect(body.requests[1]).toMatchObject({ requestType: 'Crosschain Swap', status: 'success', data: { metadata: { currencyOut: { currency: { symbol: 'USDC', chainId: 1 } } } } });
    expect(body.requests[2].data).toMatchObject({ failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL', outTxs: [{ type: 'refund', chainId: 8453 }] });
    expect(body.requests[0]).toMatchObject({ status: 'waiting', sender: null, data: { inTxs: [], outTxs: [] } });
  });

  it('finds requests by their real hashes, wallets, keys, chains and statuses', async () => {
    const refund = (await list(`id=${ids.refund}`)).body.requests[0];
    const fillHash = (await list(`id=${ids.bridge}`)).body.requests[0].data.outTxs[0].txHash;
    const refundHash = refund.data.outTxs[0].txHash;
    expect(idsOf((await list(`depositTxHash=${depositHash}`)).body)).toEqual([ids.bridge]);
    expect(idsOf((await list(`fillTxHash=${fillHash}`)).body)).toEqual([ids.bridge]);
    expect(idsOf((await list(`refundTxHash=${refundHash}`)).body)).toEqual([ids.refund]);
    expect(idsOf((await list(`term=${refundDepositHash}`)).body)).toEqual([ids.refund]);
    expect(idsOf((await list(`term=${sim.accounts[5]!.address.toLowerCase()}`)).body)).toEqual([ids.refund, ids.bridge]);
    expect(idsOf((await list(`user=${sim.accounts[4]!.address}`)).body)).toEqual([ids.unpaid, ids.bridge]);
    expect(idsOf((await list(`apiKey=${secondKey}`)).body)).toEqual([ids.refund]);
    expect(idsOf((await list(`apiKey=${sim.apiKey},${secondKey}&sortDirection=asc`)).body)).toEqual([ids.bridge, ids.refund]);
    expect(idsOf((await list('chainId=8453')).body)).toEqual([ids.swap, ids.refund, ids.bridge]);
    expect(idsOf((await list('requestType=crosschain%20swap')).body)).toEqual([ids.swap]);
    expect(idsOf((await list('currencyOutSymbol=usdc&currencyOutChainId=1')).body)).toEqual([ids.swap]);
    expect(idsOf((await list('requestType=Bridge&currencyInSymbol=ETH')).body)).toEqual([ids.unpaid, ids.refund, ids.bridge]);
    expect(idsOf((await list('status=refund')).body)).toEqual([ids.refund]);
    expect(idsOf((await list('failReason=DEPOSITED_AMOUNT_TOO_LOW_TO_FILL')).body)).toEqual([ids.refund]);
    expect(idsOf((await list(`filters=${encodeURIComponent(JSON.stringify([{ 'not:status': ['waiting', 'refund'] }]))}`)).body)).toEqual([ids.swap, ids.bridge]);
  });

  it('bounds chain-entry blocks (origin only with originChainId) and the deposit-to-fill time', async () => {
    const bridge = (await list(`id=${ids.bridge}`)).body.requests[0];
    const depositBlock = bridge.data.inTxs[0].block;
    expect(idsOf((await list(`startBlock=${depositBlock}&endBlock=${depositBlock}&originChainId=1`)).body)).toEqual([ids.bridge]);
    // each Anvil keeps its own clock: a fill can carry an earlier timestamp than its deposit; the listing clamps at 0
    const fillTime = Math.max(0, bridge.data.outTxs[0].timestamp - bridge.data.inTxs[0].timestamp);
    expect(idsOf((await list(`fillTimeMin=${fillTime}&fillTimeMax=${fillTime}&originChainId=1`)).body)).toEqual([ids.bridge]);
    expect(idsOf((await list(`fillTimeMin=${fillTime + 1}&originChainId=1`)).body)).toEqual([]);
  });

  it('shows referrer to the key that made the request only', async () => {
    expect((await list(`id=${ids.bridge}&includeAuthenticatedData=true`)).body.requests[0].data.referrer).toBe('listing-test');
    expect((await list(`id=${ids.bridge}&includeAuthenticatedData=true`, secondKey)).body.requests[0].data.referrer).toBeUndefined();
  });
});
