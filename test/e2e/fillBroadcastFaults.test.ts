// covers: status:submitted, status:failure, status:refund, transition:submitted->pending, transition:submitted->failure, transition:pending->failure, transition:failure->refund
// covers: failReason:TRANSACTION_NOT_INCLUDED, failReason:TRANSACTION_SUBMISSION_FAILED
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import { bumpedFee, INCLUSION_CHECKS_PER_WINDOW } from '../../src/domain/fill/fillInclusion';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { startTestSimulator } from '../support/startTestSimulator';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';

const ORIGIN = 8453;
const DESTINATION = 42161;

/**
 * SPEC §7.2 broadcast failures, on real chains with the virtual clock stepped by hand: a fill its
 * chain never sees is re-broadcast with higher fees through the inclusion window, then fails with
 * TRANSACTION_NOT_INCLUDED; a fill the node refuses to take fails with TRANSACTION_SUBMISSION_FAILED.
 * Both end with the deposit refunded on the origin chain.
 */
describe('fill broadcast faults', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ clockMode: 'manual' });
  });
  afterEach(() => {
    sim.control.solver.clearRules();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const checkIntervalMs = () => (sim.config.fillInclusionWindowSeconds * 1000) / INCLUSION_CHECKS_PER_WINDOW;
  const statusesOf = (requestId: string) => sim.control.requests.eventsFor(requestId).map((event) => event.toStatus);
  const nativeBalance = (chainId: number, owner: string, blockNumber?: bigint) =>
    publicClientFor(sim, chainId).getBalance({ address: owner as Address, ...(blockNumber === undefined ? {} : { blockNumber }) });

  const bridge = (index: number, body: Partial<Parameters<typeof nativeBridgeBody>[1]> = {}) => quoteAndDepositNative(sim, index, { origin: ORIGIN, destination: DESTINATION }, body);

  /** Moves the virtual clock to the next inclusion check and lets the solver act on it. */
  async function nextInclusionCheck() {
    sim.control.clock.advance(checkIntervalMs());
    await sim.control.solver.idle();
  }

  const unseenFillOf = (requestId: string) => sim.control.requests.get(requestId)!.submittedTxs.find((tx) => tx.type === 'fill')!.txHash;

  it('a dropped fill is re-broadcast with higher fees at the next inclusion check and fills (submitted → pending → submitted → success)', async () => {
    const ordinary = await bridge(1);
    const ordinaryFill = sim.control.requests.get(ordinary.requestId)!.outTxs[0]!.txHash;
    const { maxPriorityFeePerGas: priorityFee } = await publicClientFor(sim, DESTINATION).getTransaction({ hash: ordinaryFill });

    sim.control.solver.addRule({ action: { kind: 'dropBroadcast' }, times: 1 });
    const { requestId } = await bridge(2);
    expect(sim.control.requests.get(requestId)!.status).toBe('submitted');
    const dropped = unseenFillOf(requestId);
    await expect(publicClientFor(sim, DESTINATION).getTransaction({ hash: dropped })).rejects.toThrow();

    await nextInclusionCheck();
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'success', failReason: 'N/A' });
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'submitted', 'pending', 'submitted', 'success']);
    const fill = sim.control.requests.get(requestId)!.outTxs[0]!;
    expect(fill.txHash).not.toBe(dropped);
    expect(status.txHashes).toEqual([fill.txHash]);
    // the second broadcast pays 12.5% more priority fee than an ordinary fill
    const mined = await publicClientFor(sim, DESTINATION).getTransaction({ hash: fill.txHash });
    expect(mined.maxPriorityFeePerGas).toBe(bumpedFee(priorityFee!, 1));
  });

  it('a fill its chain never sees is re-broadcast until the window elapses, then fails with TRANSACTION_NOT_INCLUDED and is refunded', async () => {
    sim.control.solver.addRule({ action: { kind: 'dropBroadcast' } });
    const { requestId, amount, user, depositBlock } = await bridge(3);
    const afterDeposit = await nativeBalance(ORIGIN, user.address, depositBlock);
    const broadcasts = [unseenFillOf(requestId)];
    for (let check = 1; check < INCLUSION_CHECKS_PER_WINDOW; check++) {
      await nextInclusionCheck();
      expect(sim.control.requests.get(requestId)!.status).toBe('submitted');
      broadcasts.push(unseenFillOf(requestId));
    }
    // each re-broadcast is a new transaction (higher fees), and none reached the chain
    expect(new Set(broadcasts).size).toBe(INCLUSION_CHECKS_PER_WINDOW);

    await nextInclusionCheck();
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'TRANSACTION_NOT_INCLUDED', refundFailReason: 'N/A', txHashes: [] });
    expect(statusesOf(requestId)).toEqual([
      'waiting',
      'pending',
      ...Array.from({ length: INCLUSION_CHECKS_PER_WINDOW - 1 }, () => ['submitted', 'pending']).flat(),
      'submitted',
      'failure',
      'refund',
    ]);
    const record = sim.control.requests.get(requestId)!;
    expect(record).toMatchObject({ submittedTxs: [], fillAmount: null, failedTxHash: null });
    expect(record.outTxs).toMatchObject([{ type: 'refund', chainId: ORIGIN, status: 'success', data: { to: user.address, amount } }]);
    expect((await nativeBalance(ORIGIN, user.address)) - afterDeposit).toBe(amount);
  });

  it('a fill the node refuses to take fails with TRANSACTION_SUBMISSION_FAILED, leaves no transaction and no used nonce, and is refunded', async () => {
    const solver = sim.control.solverAddress as Address;
    const nonceBefore = await publicClientFor(sim, DESTINATION).getTransactionCount({ address: solver, blockTag: 'pending' });
    sim.control.solver.addRule({ action: { kind: 'refuseBroadcast' }, times: 1 });
    const { requestId, amount, user, depositBlock } = await bridge(4);
    const afterDeposit = await nativeBalance(ORIGIN, user.address, depositBlock);

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'TRANSACTION_SUBMISSION_FAILED', txHashes: [] });
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'failure', 'refund']);
    const record = sim.control.requests.get(requestId)!;
    expect(record).toMatchObject({ submittedTxs: [], failedTxHash: null });
    expect(record.outTxs).toMatchObject([{ type: 'refund', chainId: ORIGIN, status: 'success', data: { to: user.address, amount } }]);
    expect((await nativeBalance(ORIGIN, user.address)) - afterDeposit).toBe(amount);
    expect(await publicClientFor(sim, DESTINATION).getTransactionCount({ address: solver, blockTag: 'pending' })).toBe(nonceBefore);

    // the refused fill's nonce was never used: the next fill goes through
    const next = await bridge(5);
    expect(await waitForSettledStatus(sim.baseUrl, next.requestId)).toMatchObject({ status: 'success' });
  });
});
