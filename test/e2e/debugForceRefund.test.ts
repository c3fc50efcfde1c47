// covers: endpoint:POST /quote/v2, status:refund, transition:pending->refund, failReason:MANUAL_ADMIN_REFUND
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Address } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';
import { sharedTestSimulator } from '../support/sharedTestSimulator';

const ORIGIN = 8453;
const DESTINATION = 42161;

/** The service's test hook: `referrer: "debug-force-refund"` refunds the request after its deposit. */
describe('referrer debug-force-refund', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterEach(() => {
    sim.control.solver.clearRules();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const forcedRefund = (index: number) => quoteAndDepositNative(sim, index, { origin: ORIGIN, destination: DESTINATION }, { referrer: 'debug-force-refund' });

  it('refunds the deposit to the depositor on the origin chain, through the solver refund path', async () => {
    const { requestId, amount, depositHash, user, depositBlock } = await forcedRefund(3);
    const client = publicClientFor(sim, ORIGIN);
    const atDeposit = await client.getBalance({ address: user.address as Address, blockNumber: depositBlock });

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status).toMatchObject({ status: 'refund', failReason: 'MANUAL_ADMIN_REFUND', refundFailReason: 'N/A', inTxHashes: [depositHash], txHashes: [] });
    expect((await client.getBalance({ address: user.address as Address })) - atDeposit).toBe(amount);
    const record = sim.control.requests.get(requestId)!;
    expect(record.quote.referrer).toBe('debug-force-refund');
    expect(record.outTxs).toMatchObject([{ type: 'refund', chainId: ORIGIN, status: 'success', data: { to: user.address, amount } }]);
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'refund']);
    // the destination got nothing
    const listed = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`);
    expect(listed.body.txHashes).toEqual([]);
  });

  it('a scripted solver rule still wins over the hook (a held request stays pending until released)', async () => {
    const hold = sim.control.solver.addRule({ action: { kind: 'never' } });
    const { requestId } = await forcedRefund(4);
    expect(sim.control.requests.get(requestId)!.status).toBe('pending');
    sim.control.solver.removeRule(hold.id);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'refund', failReason: 'MANUAL_ADMIN_REFUND' });
  });

  it('any other referrer fills as usual', async () => {
    const { requestId } = await quoteAndDepositNative(sim, 5, { origin: ORIGIN, destination: DESTINATION }, { referrer: 'debug-force-refund-not' });
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
  });
});
