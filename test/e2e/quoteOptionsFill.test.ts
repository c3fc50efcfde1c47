import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWalletClient, encodeFunctionData, http, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: status:success, status:refund, transition:pending->submitted, transition:submitted->success, failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL

/**
 * SPEC §1.4 with §1.6 options: the fill is revalidated against the deposit that really arrived,
 * with the quote's app fees, sponsorship and fixed rate — on real chains.
 */
describe('quote options at fill time', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const BPS = 10_000n;

  async function quote(body: Record<string, unknown>) {
    const response = await postJson(`${sim.baseUrl}/quote/v2`, body);
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Deposits `value` of native currency for the request straight into the origin depository. */
  async function depositNative(accountIndex: number, requestId: Hex, value: bigint, originChainId = 1): Promise<void> {
    const chain = evmChainOf(sim, originChainId);
    const account = privateKeyToAccount(sim.accounts[accountIndex]!.privateKey as Hex);
    const wallet = createWalletClient({ account, chain: chain.viemChain(), transport: http(chain.rpcUrl) });
    const hash = await wallet.sendTransaction({
      to: chain.contractAddresses.depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [account.address, requestId] }),
      value,
    });
    await publicClientFor(sim, originChainId).waitForTransactionReceipt({ hash, pollingInterval: 5 });
  }

  it('a sponsored quote delivers its higher output on chain', async () => {
    const recipient = '0x00000000000000000000000000000000005e0501' as Address;
    const body = await quote(nativeBridgeBody(sim.accounts[2]!.address, { recipient, subsidizeFees: true, sponsoredFeeComponents: ['execution'] }));
    expect(BigInt(body.fees.subsidized.amount)).toBe(BigInt(body.fees.relayerGas.amount));
    expect(BigInt(body.details.currencyOut.amount)).toBe(BigInt(body.details.currencyIn.amount) - BigInt(body.fees.relayerService.amount));
    await executeQuoteSteps(sim, sim.accounts[2]!.privateKey as Hex, body);
    expect((await waitForSettledStatus(sim.baseUrl, body.steps[0].requestId)).status).toBe('success');
    expect(await publicClientFor(sim, 8453).getBalance({ address: recipient })).toBe(BigInt(body.details.currencyOut.amount));
  });

  it('a deposit larger than quoted is re-priced with every bps fee (service + app) and the app fees actually taken scale with it', async () => {
    const recipient = '0x00000000000000000000000000000000005e0502' as Address;
    const body = await quote(nativeBridgeBody(sim.accounts[2]!.address, { recipient, appFees: [{ recipient: sim.accounts[9]!.address, fee: '100' }] }));
    const requestId = body.steps[0].requestId as Hex;
    const deposited = 2n * BigInt(body.details.currencyIn.amount);
    await depositNative(2, requestId, deposited);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    const record = sim.control.requests.get(requestId)!;
    const bpsFees = (deposited * (record.quote.serviceFeeBps + 100n) + BPS - 1n) / BPS;
    const expected = deposited - record.quote.amounts.relayerGas - bpsFees;
    expect(record.fillAmount).toBe(expected);
    expect(await publicClientFor(sim, 8453).getBalance({ address: recipient })).toBe(expected);
    const quoted = record.appFees!.quoted[0]!.amount;
    expect(record.appFees!.actual[0]!.amount).toBe((quoted * expected) / record.quote.amounts.amountOut);
  });

  it('a fixed-rate quote pays exactly its rate: twice the input, twice the output', async () => {
    const recipient = '0x00000000000000000000000000000000005e0503' as Address;
    const body = await quote(nativeBridgeBody(sim.accounts[2]!.address, { recipient, fixedRate: '30' }));
    const requestId = body.steps[0].requestId as Hex;
    await depositNative(2, requestId, 2n * BigInt(body.details.currencyIn.amount));
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    expect(await publicClientFor(sim, 8453).getBalance({ address: recipient })).toBe(2n * BigInt(body.details.currencyOut.amount));
  });

  it('a fixed-rate quote refunds a deposit short of its input instead of re-pricing it', async () => {
    const body = await quote(nativeBridgeBody(sim.accounts[2]!.address, { fixedRate: '30' }));
    const requestId = body.steps[0].requestId as Hex;
    await depositNative(2, requestId, BigInt(body.details.currencyIn.amount) - 1n);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'refund', failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL' });
  });
});
