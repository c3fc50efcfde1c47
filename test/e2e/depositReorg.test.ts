// covers: failReason:DEPOSIT_REORGED, status:failure, transition:pending->failure, transition:success->failure
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

/**
 * SPEC §3 related rules: a deposit detected as reorged out reports `status: failure` on its
 * `inTxs[]` entry (with `metadata.reorg`), and the top-level status flips to `failure`.
 * The reorg is real (`anvil_reorg`); Anvil emits no `removed` logs, so only the block-hash
 * comparison can notice it.
 */
describe('a deposit reorged out of the origin chain', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  /** Resolves once the request reaches `status`, whether it already has or does so later. */
  async function reachedStatus(requestId: Hex, status: 'success'): Promise<void> {
    const giveUp = new AbortController();
    const change = sim.control.events.waitFor(requestId, [status], giveUp.signal).catch(() => undefined);
    if (sim.control.requests.get(requestId)?.status === status) giveUp.abort();
    await change;
  }

  async function quoteAndDeposit(accountIndex: number): Promise<{ requestId: Hex; depositHash: Hex }> {
    const user = sim.accounts[accountIndex]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(user.address, { originChainId: 42161, destinationChainId: 1, amount: '40000000000000000' }));
    const requestId = quote.body.steps[0].requestId as Hex;
    const [depositHash] = await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    return { requestId, depositHash: depositHash! };
  }

  async function reorgOriginChain(depth: number): Promise<void> {
    // the adapter's cheat call: `anvil_reorg [depth, []]`, then the watcher catches up
    await sim.control.chain(42161).reorg(depth);
    await sim.control.solver.idle();
  }

  it('fails a pending request with DEPOSIT_REORGED and marks the inTxs entry', async () => {
    sim.control.solver.setPolicy('hold');
    const { requestId, depositHash } = await quoteAndDeposit(6);
    await evmChainOf(sim, 42161).syncNow();
    await sim.control.solver.idle();
    expect(sim.control.requests.get(requestId)?.status).toBe('pending');

    await reorgOriginChain(1);

    const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    expect(status).toMatchObject({ status: 'failure', failReason: 'DEPOSIT_REORGED', inTxHashes: [depositHash], txHashes: [] });
    const record = sim.control.requests.get(requestId)!;
    expect(record.inTxs[0]).toMatchObject({ txHash: depositHash, status: 'failure', metadata: { reorg: { failReason: 'DEPOSIT_REORGED' } } });
    expect(record.inTxs[0]!.metadata!.reorg!.detectedAt).toBeGreaterThan(0);
    expect(sim.control.requests.eventsFor(requestId).map((e) => e.toStatus)).toEqual(['waiting', 'pending', 'failure']);
    sim.control.solver.setPolicy('fill');
  });

  it('flips a filled request from success to failure when its deposit is reorged out afterwards', async () => {
    const { requestId } = await quoteAndDeposit(7);
    await evmChainOf(sim, 42161).syncNow();
    await reachedStatus(requestId, 'success');

    await reorgOriginChain(1);

    const record = sim.control.requests.get(requestId)!;
    expect(record.status).toBe('failure');
    expect(record.failReason).toBe('DEPOSIT_REORGED');
    expect(record.inTxs[0]!.metadata!.reorg).toMatchObject({ action: 'fill', failReason: 'DEPOSIT_REORGED' });
    expect(record.outTxs.filter((tx) => tx.type === 'fill')).toHaveLength(1);
  });

  it('leaves a request alone when a reorg replaces blocks that hold no deposit of it', async () => {
    const { requestId } = await quoteAndDeposit(8);
    await evmChainOf(sim, 42161).syncNow();
    await reachedStatus(requestId, 'success');
    await evmChainOf(sim, 42161).testClient.mine({ blocks: 2 });
    await reorgOriginChain(2);
    expect(sim.control.requests.get(requestId)?.status).toBe('success');
  });
});
