// covers: status:waiting, status:pending, status:success, status:refund, transition:waiting->pending, transition:pending->refund
// covers: failReason:DOUBLE_SPEND, failReason:ORPHANED_DEPOSIT_REFUND, failReason:DEPOSIT_CHAIN_MISMATCH, failReason:ORDER_EXPIRED
// covers: endpoint:GET /requests/v3, endpoint:GET /intents/status/v3
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { startTestSimulator } from '../support/startTestSimulator';
import { sendFrom } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

const ORIGIN = 8453;
const DESTINATION = 42161;
const OTHER_CHAIN = 1;

/**
 * SPEC §7.2, §7.3: deposits the solver refunds as they are, for real on Anvil — a second deposit
 * for one request (DOUBLE_SPEND), a deposit naming no request (ORPHANED_DEPOSIT_REFUND), one on
 * another chain than quoted (DEPOSIT_CHAIN_MISMATCH), one after the order's deadline (ORDER_EXPIRED).
 */
describe('deposits refunded as they arrive', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ clockMode: 'manual' });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function quoteBridge(index: number) {
    const user = sim.accounts[index]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: ORIGIN, destinationChainId: DESTINATION }));
    expect(quote.status).toBe(200);
    return { user, requestId: quote.body.steps[0].requestId as Hex, amountIn: BigInt(quote.body.details.currencyIn.amount) };
  }

  /** A depository deposit tagged `requestId` on `chainId`; resolves once the solver has dealt with it. */
  async function deposit(chainId: number, privateKey: string, depositor: string, requestId: Hex, amount: bigint) {
    const hash = await sendFrom(sim, chainId, privateKey, {
      to: evmChainOf(sim, chainId).contractAddresses.depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [depositor as Address, requestId] }),
      value: amount,
    });
    const receipt = await publicClientFor(sim, chainId).getTransactionReceipt({ hash });
    await evmChainOf(sim, chainId).syncNow();
    await sim.control.solver.idle();
    return { hash, blockNumber: receipt.blockNumber };
  }

  const nativeBalance = (chainId: number, owner: string, blockNumber?: bigint) =>
    publicClientFor(sim, chainId).getBalance({ address: owner as Address, ...(blockNumber === undefined ? {} : { blockNumber }) });
  const statusesOf = (requestId: string) => sim.control.requests.eventsFor(requestId).map((event) => event.toStatus);

  /** What an integrator does to find a refund it did not quote: the listing, by the deposit's hash. */
  async function requestWithDeposit(txHash: Hex) {
    const response = await fetch(`${sim.baseUrl}/requests/v3?depositTxHash=${txHash}`, { headers: { 'x-api-key': sim.apiKey } });
    expect(response.status).toBe(200);
    const { requests } = (await response.json()) as { requests: Array<{ id: string; [field: string]: unknown }> };
    expect(requests).toHaveLength(1);
    return requests[0]!;
  }

  it('a second deposit for a filled request gets a record of its own, refunded with DOUBLE_SPEND; the first request stays a success', async () => {
    const { user, requestId, amountIn } = await quoteBridge(1);
    const first = await deposit(ORIGIN, user.privateKey, user.address, requestId, amountIn);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success', failReason: 'N/A', inTxHashes: [first.hash] });

    const second = await deposit(ORIGIN, user.privateKey, user.address, requestId, amountIn);
    const afterSecond = await nativeBalance(ORIGIN, user.address, second.blockNumber);
    // the request the deposits named is untouched: one deposit, one fill, success
    const original = sim.control.requests.get(requestId)!;
    expect(original).toMatchObject({ status: 'success', failReason: null });
    expect(original.inTxs.map((tx) => tx.txHash)).toEqual([first.hash]);
    expect(original.outTxs.map((tx) => tx.type)).toEqual(['fill']);
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'submitted', 'success']);

    // the second deposit's record: found by its deposit, the same quote, refunded to the depositor on the origin chain
    const listed = await requestWithDeposit(second.hash);
    expect(listed.id).not.toBe(requestId);
    expect(listed).toMatchObject({ status: 'refund', data: { failReason: 'DOUBLE_SPEND', refundFailReason: null } });
    const status = await waitForSettledStatus(sim.baseUrl, listed.id);
    expect(status).toMatchObject({ status: 'refund', failReason: 'DOUBLE_SPEND', refundFailReason: 'N/A', inTxHashes: [second.hash], txHashes: [] });
    const duplicate = sim.control.requests.get(listed.id)!;
    expect(duplicate.quote).toEqual(original.quote);
    expect(duplicate.outTxs).toMatchObject([{ type: 'refund', chainId: ORIGIN, status: 'success', data: { to: user.address, amount: amountIn } }]);
    expect(statusesOf(listed.id)).toEqual(['waiting', 'pending', 'refund']);
    expect((await nativeBalance(ORIGIN, user.address)) - afterSecond).toBe(amountIn);
  });

  it('a deposit naming no known request is refunded to its depositor under a record of its own (ORPHANED_DEPOSIT_REFUND)', async () => {
    const depositor = sim.accounts[2]!;
    const unknownId = `0x${'ab'.repeat(32)}` as Hex;
    const amount = 7_000_000_000_000_000n;
    const orphan = await deposit(ORIGIN, depositor.privateKey, depositor.address, unknownId, amount);
    const afterDeposit = await nativeBalance(ORIGIN, depositor.address, orphan.blockNumber);

    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${unknownId}`)).status).toBe(404);
    const listed = await requestWithDeposit(orphan.hash);
    expect(listed).toMatchObject({ status: 'refund', user: depositor.address, recipient: depositor.address, data: { failReason: 'ORPHANED_DEPOSIT_REFUND' } });
    expect(await waitForSettledStatus(sim.baseUrl, listed.id)).toMatchObject({ status: 'refund', failReason: 'ORPHANED_DEPOSIT_REFUND', inTxHashes: [orphan.hash] });
    const record = sim.control.requests.get(listed.id)!;
    expect(record.quote).toMatchObject({ requestType: 'Send', originChainId: ORIGIN, destinationChainId: ORIGIN, amounts: { amountIn: amount, amountOut: 0n }, orderId: null });
    expect(record.outTxs).toMatchObject([{ type: 'refund', chainId: ORIGIN, status: 'success', data: { to: depositor.address, amount } }]);
    expect(statusesOf(listed.id)).toEqual(['waiting', 'pending', 'refund']);
    expect((await nativeBalance(ORIGIN, depositor.address)) - afterDeposit).toBe(amount);
  });

  it('a deposit on another chain than quoted is refunded on that chain (DEPOSIT_CHAIN_MISMATCH); a deposit after that is a second one', async () => {
    const { user, requestId, amountIn } = await quoteBridge(3);
    const wrong = await deposit(OTHER_CHAIN, user.privateKey, user.address, requestId, amountIn);
    const afterWrong = await nativeBalance(OTHER_CHAIN, user.address, wrong.blockNumber);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({
      status: 'refund',
      failReason: 'DEPOSIT_CHAIN_MISMATCH',
      inTxHashes: [wrong.hash],
      txHashes: [],
    });
    const record = sim.control.requests.get(requestId)!;
    expect(record.inTxs).toMatchObject([{ type: 'deposit', chainId: OTHER_CHAIN }]);
    expect(record.outTxs).toMatchObject([{ type: 'refund', chainId: OTHER_CHAIN, status: 'success', data: { to: user.address, amount: amountIn } }]);
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'refund']);
    expect((await nativeBalance(OTHER_CHAIN, user.address)) - afterWrong).toBe(amountIn);

    // the request is settled: paying again on the right chain is a second deposit for it
    const again = await deposit(ORIGIN, user.privateKey, user.address, requestId, amountIn);
    const listed = await requestWithDeposit(again.hash);
    expect(listed).toMatchObject({ status: 'refund', data: { failReason: 'DOUBLE_SPEND' } });
    expect(sim.control.requests.get(requestId)!.inTxs).toHaveLength(1);
  });

  it('a deposit indexed after the order deadline (quote time + quoteTtlSeconds) is refunded (ORDER_EXPIRED); one at the deadline fills', async () => {
    const ttlMs = sim.config.quoteTtlSeconds * 1000;
    const onTime = await quoteBridge(4);
    sim.control.clock.advance(ttlMs);
    await deposit(ORIGIN, onTime.user.privateKey, onTime.user.address, onTime.requestId, onTime.amountIn);
    expect(await waitForSettledStatus(sim.baseUrl, onTime.requestId)).toMatchObject({ status: 'success' });

    const late = await quoteBridge(5);
    sim.control.clock.advance(ttlMs + 1000);
    const made = await deposit(ORIGIN, late.user.privateKey, late.user.address, late.requestId, late.amountIn);
    const afterDeposit = await nativeBalance(ORIGIN, late.user.address, made.blockNumber);
    expect(await waitForSettledStatus(sim.baseUrl, late.requestId)).toMatchObject({ status: 'refund', failReason: 'ORDER_EXPIRED', txHashes: [] });
    expect(statusesOf(late.requestId)).toEqual(['waiting', 'pending', 'refund']);
    expect(sim.control.requests.get(late.requestId)!.outTxs).toMatchObject([{ type: 'refund', chainId: ORIGIN, data: { to: late.user.address, amount: late.amountIn } }]);
    expect((await nativeBalance(ORIGIN, late.user.address)) - afterDeposit).toBe(late.amountIn);
  });
});
