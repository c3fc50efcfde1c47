// covers: status:pending, status:submitted, status:success, status:failure, status:refund, transition:pending->refund, transition:pending->failure, transition:failure->refund, transition:pending->submitted
// covers: failReason:SOLVER_BALANCE_TOO_LOW, failReason:MANUAL_ADMIN_REFUND, failReason:SOLVER_CAPACITY_EXCEEDED, failReason:NO_QUOTES
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, type Address, type Hex } from 'viem';
import { depositoryArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, nativeBridgeBody, postJson, publicClientFor, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { sendFrom } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';

const ORIGIN = 8453;
const DESTINATION = 42161;

/** Solver behaviour as rule data (control.solver and /admin/solver/rules), on real chains. */
describe('solver rules', () => {
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

  const bridge = (index: number, body: Partial<Parameters<typeof nativeBridgeBody>[1]> = {}) => quoteAndDepositNative(sim, index, { origin: ORIGIN, destination: DESTINATION }, body);
  const statusOf = async (requestId: string) => (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
  const statusesOf = (requestId: string) => sim.control.requests.eventsFor(requestId).map((e) => e.toStatus);

  it('never: the deposit is indexed and held in pending; removing the rule fills it', async () => {
    const rule = sim.control.solver.addRule({ action: { kind: 'never' } });
    const { requestId } = await bridge(1);
    expect((await statusOf(requestId)).status).toBe('pending');
    expect(sim.control.solver.removeRule(rule.id)).toBe(true);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'submitted', 'success']);
  });

  it('delay: waits on the virtual clock, then fills', async () => {
    sim.control.solver.addRule({ action: { kind: 'delay', seconds: 3600 } });
    const { requestId } = await bridge(2);
    expect((await statusOf(requestId)).status).toBe('pending');
    sim.control.clock.advance(3_599_000);
    await sim.control.solver.idle();
    expect((await statusOf(requestId)).status).toBe('pending');
    sim.control.clock.advance(1_000);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
  });

  it('fail with a reason: failure with that failReason, then the deposit is paid back on chain', async () => {
    sim.control.solver.addRule({ action: { kind: 'fail', failReason: 'SOLVER_CAPACITY_EXCEEDED' } });
    const { requestId, amount, user } = await bridge(3);
    await sim.control.solver.idle();
    expect(await statusOf(requestId)).toMatchObject({ status: 'refund', failReason: 'SOLVER_CAPACITY_EXCEEDED', txHashes: [] });
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'failure', 'refund']);
    const refund = sim.control.requests.get(requestId)!.outTxs[0]!;
    expect(refund).toMatchObject({ type: 'refund', chainId: ORIGIN, status: 'success', data: { amount } });
    expect(refund.data.to.toLowerCase()).toBe(user.address.toLowerCase());
    const receipt = await publicClientFor(sim, ORIGIN).getTransactionReceipt({ hash: refund.txHash as Hex });
    expect(receipt.status).toBe('success');
  });

  it('refund: the deposit goes back at once (MANUAL_ADMIN_REFUND); drain: SOLVER_BALANCE_TOO_LOW and back', async () => {
    sim.control.solver.addRule({ action: { kind: 'refund' } });
    const refunded = await bridge(4);
    expect(await statusOf(refunded.requestId)).toMatchObject({ status: 'refund', failReason: 'MANUAL_ADMIN_REFUND' });
    expect(statusesOf(refunded.requestId)).toEqual(['waiting', 'pending', 'refund']);

    sim.control.solver.clearRules();
    sim.control.solver.addRule({ action: { kind: 'drain' } });
    const drained = await bridge(5);
    expect(await statusOf(drained.requestId)).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
  });

  it('dropBroadcast: the request reads submitted with a fill the chain never sees', async () => {
    sim.control.solver.addRule({ action: { kind: 'dropBroadcast' } });
    const { requestId } = await bridge(6);
    const status = await statusOf(requestId);
    expect(status.status).toBe('submitted');
    const [fillHash] = sim.control.requests.get(requestId)!.submittedTxs.map((tx) => tx.txHash);
    expect(fillHash).toMatch(/^0x[0-9a-f]{64}$/);
    await expect(publicClientFor(sim, DESTINATION).getTransaction({ hash: fillHash as Hex })).rejects.toThrow();
    // the next fill is not blocked by the dropped one's nonce
    sim.control.solver.clearRules();
    const next = await bridge(7);
    expect(await waitForSettledStatus(sim.baseUrl, next.requestId)).toMatchObject({ status: 'success' });
  });

  it('rules match by request id and by chain; other requests fill', async () => {
    const quoteFor = async (index: number) => {
      const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[index]!.address, { originChainId: ORIGIN, destinationChainId: DESTINATION }));
      return quote.body.steps[0].requestId as Hex;
    };
    // a rule for a request id made before its deposit
    const targeted = await quoteFor(8);
    sim.control.solver.addRule({ match: { requestId: targeted }, action: { kind: 'refund', failReason: 'NO_QUOTES' } });
    sim.control.solver.addRule({ match: { originChainId: 1 }, action: { kind: 'never' } }); // another chain: not these
    const other = await bridge(9);
    expect(await statusOf(other.requestId)).toMatchObject({ status: 'success' });
    const user = sim.accounts[8]!;
    await sendFrom(sim, ORIGIN, user.privateKey, {
      to: evmChainOf(sim, ORIGIN).contractAddresses.depository,
      data: encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [user.address as Address, targeted] }),
      value: BigInt(sim.control.requests.get(targeted)!.quote.amounts.amountIn),
    });
    expect(await waitForSettledStatus(sim.baseUrl, targeted)).toMatchObject({ status: 'refund', failReason: 'NO_QUOTES' });
  });

  it('over HTTP: POST adds (201), GET lists, DELETE removes one (404 when unknown) or all; bad rules are 400 with an errorCode', async () => {
    const url = `${sim.baseUrl}/admin/solver/rules`;
    const created = await postJson(url, { match: { destinationChainId: DESTINATION }, action: { kind: 'delay', seconds: 2 }, times: 3 });
    expect(created.status).toBe(201);
    expect(created.body.rule).toMatchObject({ id: expect.stringMatching(/^rule-\d+$/), match: { destinationChainId: DESTINATION }, action: { kind: 'delay', seconds: 2 }, remaining: 3 });
    expect((await getJson(url)).body.rules).toEqual([created.body.rule]);
    for (const [bad, errorCode] of [
      [{ action: { kind: 'fail', failReason: 'NOPE' } }, 'INVALID_INPUT_PARAMS'],
      [{ action: { kind: 'explode' } }, 'INVALID_INPUT_PARAMS'],
      [{ action: { kind: 'fill' }, probability: 2 }, 'INVALID_INPUT_PARAMS'],
      ['not an object', 'INVALID_JSON'],
    ] as const) {
      const answer = await postJson(url, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.errorCode).toBe(errorCode);
    }
    expect((await requestJson(`${url}/rule-999`, { method: 'DELETE' })).body).toMatchObject({ errorCode: 'SOLVER_RULE_NOT_FOUND' });
    expect((await requestJson(`${url}/${created.body.rule.id}`, { method: 'DELETE' })).body).toEqual({ rules: [] });
    await postJson(url, { action: { kind: 'never' } });
    expect((await requestJson(url, { method: 'DELETE' })).body).toEqual({ rules: [] });
  });

  it('control.reset() restores a fresh control state: no rules, no RPC faults', async () => {
    sim.control.solver.addRule({ action: { kind: 'never' } });
    sim.control.rpcFaults.set({ chainId: ORIGIN, kind: 'rpc-error' });
    sim.control.reset();
    expect(sim.control.solver.listRules()).toEqual([]);
    expect(sim.control.rpcFaults.list()).toEqual([]);
    const { requestId } = await bridge(1);
    expect(await waitForSettledStatus(sim.baseUrl, requestId)).toMatchObject({ status: 'success' });
  });
});
