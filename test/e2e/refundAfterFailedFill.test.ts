// covers: status:failure, transition:pending->failure, transition:submitted->failure, failReason:DESTINATION_TOKEN_TRANSFER_REJECTED, failReason:DEPOSITED_AMOUNT_TOO_LOW_TO_FILL, refundFailReason:AMOUNT_TOO_LOW_TO_REFUND
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, getAddress, type Address, type Hex } from 'viem';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { balanceOn, blockOnStablecoin, freshAddresses, sendFrom, SWAP_TEST_CHAINS } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';

/**
 * SPEC §3, §7.3, §7.4: what the record says after a failed fill when the refund that follows
 * fails too, or is not worth sending. The chain is the judge: the refund transaction that reverts
 * is in `outTxs` as the chain mined it, and the depositor's balance shows nothing came back.
 */
describe('refunds that cannot be made', () => {
  let sim: RunningSimulator;
  const { ORIGIN, DESTINATION } = SWAP_TEST_CHAINS;
  const freshRecipient = freshAddresses(0xc100);
  const usdcOn = (chainId: number) => evmChainOf(sim, chainId).contractAddresses.stablecoin;

  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    sim.control.solver.setPolicy('fill');
    await sim?.stop();
  });

  it('a fill that reverts on chain, then a refund that reverts on chain: both are recorded, the request ends in failure', async () => {
    const user = sim.accounts[3]!;
    const recipient = freshRecipient();
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      recipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: usdcOn(ORIGIN),
      destinationCurrency: usdcOn(DESTINATION),
      amount: '20000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps.at(-1).requestId as Hex;

    // hold the deposit in pending while both chains turn against the request
    sim.control.solver.setPolicy('hold');
    const hashes = await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const depositHash = hashes.at(-1)!;
    await evmChainOf(sim, ORIGIN).syncNow();
    await sim.control.solver.idle();
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body.status).toBe('pending');
    const depositorAfterDeposit = await balanceOn(sim, ORIGIN, usdcOn(ORIGIN), user.address);
    await blockOnStablecoin(sim, DESTINATION, recipient); // the fill's transfer will revert
    await blockOnStablecoin(sim, ORIGIN, user.address as Address); // and so will the refund's

    sim.control.solver.setPolicy('fill');
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    await sim.control.solver.idle();
    const settled = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    expect(status.status).toBe('failure');
    expect(settled).toMatchObject({ status: 'failure', failReason: 'DESTINATION_TOKEN_TRANSFER_REJECTED', refundFailReason: 'N/A', inTxHashes: [depositHash] });
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'submitted', 'failure']);

    const record = sim.control.requests.get(requestId)!;
    expect(record.outTxs.map((tx) => [tx.type, tx.chainId, tx.status])).toEqual([
      ['fill', DESTINATION, 'failure'],
      ['refund', ORIGIN, 'failure'],
    ]);
    const refund = record.outTxs[1]!;
    expect(refund.data).toMatchObject({ currency: usdcOn(ORIGIN), amount: 20_000_000n });
    expect(getAddress(refund.data.to)).toBe(getAddress(user.address));
    // what the chain shows: the refund transaction was mined and reverted, and nothing came back
    const receipt = await publicClientFor(sim, ORIGIN).getTransactionReceipt({ hash: refund.txHash as Hex });
    expect(receipt.status).toBe('reverted');
    expect(refund.block).toBe(Number(receipt.blockNumber));
    expect(await balanceOn(sim, ORIGIN, usdcOn(ORIGIN), user.address)).toBe(depositorAfterDeposit);
  });

  it('a deposit worth less than the refund gas is not sent back: failure with refundFailReason AMOUNT_TOO_LOW_TO_REFUND', async () => {
    const user = sim.accounts[4]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: ORIGIN, destinationChainId: DESTINATION, tradeType: 'EXACT_OUTPUT' }));
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps[0].requestId as Hex;
    const depository = evmChainOf(sim, ORIGIN).contractAddresses.depository;
    const depositoryBefore = await publicClientFor(sim, ORIGIN).getBalance({ address: depository });
    const depositHash = await sendFrom(sim, ORIGIN, user.privateKey, {
      to: depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user.address as Address, requestId] }),
      value: 1n, // one wei: any refund transaction costs more gas than that
    });

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({
      status: 'failure',
      failReason: 'DEPOSITED_AMOUNT_TOO_LOW_TO_FILL',
      refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND',
      inTxHashes: [depositHash],
      txHashes: [],
    });
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'failure']);
    expect(sim.control.requests.get(requestId)!.outTxs).toEqual([]);
    // the wei stays in the depository: no refund was sent
    expect(await publicClientFor(sim, ORIGIN).getBalance({ address: depository })).toBe(depositoryBefore + 1n);
  });
});
