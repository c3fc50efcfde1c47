import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, zeroAddress, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { executeQuoteSteps, getJson, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';

describe('bridge end to end with plain viem', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('bridges native currency: waiting → pending → submitted → success, and pays the recipient on the destination Anvil', async () => {
    const [origin, destination] = [sim.chains[0]!, sim.chains[1]!];
    const user = sim.accounts[1]!;
    const recipient = sim.accounts[2]!.address as Address;
    const destinationClient = publicClientFor(sim, destination.id);
    const before = await destinationClient.getBalance({ address: recipient });

    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      recipient,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '50000000000000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as string;
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body.status).toBe('waiting');

    const [depositHash] = await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const status = await waitForSettledStatus(sim.baseUrl, requestId);

    expect(status).toMatchObject({ status: 'success', inTxHashes: [depositHash], originChainId: origin.id, destinationChainId: destination.id, failReason: 'N/A', refundFailReason: 'N/A' });
    expect(status.txHashes).toHaveLength(1);
    const fillReceipt = await destinationClient.getTransactionReceipt({ hash: status.txHashes[0] as Hex });
    expect(fillReceipt.status).toBe('success');
    const after = await destinationClient.getBalance({ address: recipient });
    expect(after - before).toBe(BigInt(quote.body.details.currencyOut.amount));
    expect(sim.control.requests.eventsFor(requestId).map((event) => event.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'success']);

    // covers: endpoint:GET /intents/status
    // the older path a step's `check.endpoint` names answers the same request in its older shape
    const older = await getJson(`${sim.baseUrl}/intents/status?requestId=${requestId}`);
    expect(older.status).toBe(200);
    expect(older.body).toMatchObject({ status: 'success', inTxHashes: [depositHash], txHashes: status.txHashes, originChainId: origin.id, destinationChainId: destination.id });
  });

  it('bridges the 6-decimal stablecoin with an approve step, under EXACT_OUTPUT', async () => {
    const [origin, destination] = [sim.chains[2]!, sim.chains[0]!];
    const user = sim.accounts[3]!;
    const originUsdc = evmChainOf(sim, origin.id).contractAddresses.stablecoin;
    const destinationUsdc = evmChainOf(sim, destination.id).contractAddresses.stablecoin;
    const destinationClient = publicClientFor(sim, destination.id);
    const balance = () => destinationClient.readContract({ address: destinationUsdc, abi: erc20Abi, functionName: 'balanceOf', args: [user.address as Address] });
    const before = await balance();

    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      originChainId: origin.id,
      destinationChainId: destination.id,
      originCurrency: originUsdc,
      destinationCurrency: destinationUsdc,
      amount: '25000000',
      tradeType: 'EXACT_OUTPUT',
    });
    expect(quote.status).toBe(200);
    expect(quote.body.steps.map((step: { id: string }) => step.id)).toEqual(['approve', 'deposit']);
    expect(quote.body.steps[0].items[0].check).toBeUndefined();
    expect(quote.body.steps[1].items[0].check.endpoint).toBe(`/intents/status?requestId=${quote.body.steps[1].requestId}`);
    expect(quote.body.details.currencyOut.amount).toBe('25000000');
    expect(BigInt(quote.body.details.currencyIn.amount)).toBeGreaterThan(25_000_000n);

    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const status = await waitForSettledStatus(sim.baseUrl, quote.body.steps[1].requestId);
    expect(status.status).toBe('success');
    expect((await balance()) - before).toBe(25_000_000n);
  });
});
