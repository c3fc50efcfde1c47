import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, nativeBridgeBody, postJson, publicClientFor, requestJson } from '../support/bridgeClient';
import { startTestSimulator } from '../support/startTestSimulator';

// covers: status:failure, transition:pending->failure, failReason:DEPOSIT_REORGED

/** The control plane over HTTP: the same clock and chain cheat calls as `sim.control` and the scenario steps. */
describe('control routes (/admin/clock, /admin/chains/:chainId/…)', () => {
  let sim: RunningSimulator;
  const admin = (method: string, path: string, body?: unknown) => requestJson(`${sim.baseUrl}${path}`, { method, body });
  beforeAll(async () => {
    sim = await startTestSimulator({ clockMode: 'manual', clockStartMs: Date.UTC(2026, 0, 1) });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('advances the virtual clock and every chain block time together; due solver delays fire', async () => {
    expect((await admin('GET', '/admin/clock')).body).toEqual({ now: Date.UTC(2026, 0, 1), mode: 'manual' });
    const client = publicClientFor(sim, 8453);
    const before = await client.getBlock();
    const answer = await admin('POST', '/admin/clock/advance', { seconds: 3600 });
    expect(answer.body).toEqual({ now: Date.UTC(2026, 0, 1) + 3_600_000, mode: 'manual' });
    await admin('POST', '/admin/chains/8453/mine', { blocks: 1 });
    const after = await client.getBlock();
    expect(after.timestamp - before.timestamp).toBeGreaterThanOrEqual(3600n);
  });

  it('mines, snapshots and reverts a chain', async () => {
    const client = publicClientFor(sim, 42161);
    const start = await client.getBlockNumber({ cacheTime: 0 });
    const snapshot = await admin('POST', '/admin/chains/42161/snapshot');
    expect(snapshot.status).toBe(201);
    expect((await admin('POST', '/admin/chains/42161/mine', { blocks: 3 })).body).toEqual({ chainId: 42161, mined: 3 });
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(start + 3n);
    expect((await admin('POST', '/admin/chains/42161/revert', { id: snapshot.body.id })).status).toBe(200);
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(start);
  });

  it('a reorg over HTTP takes a held deposit out of the chain: the request fails with DEPOSIT_REORGED by the time it answers', async () => {
    sim.control.solver.addRule({ action: { kind: 'never' } });
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridgeBody(sim.accounts[4]!.address, { originChainId: 42161, destinationChainId: 8453 }));
    await executeQuoteSteps(sim, sim.accounts[4]!.privateKey as `0x${string}`, quote.body);
    const requestId = quote.body.steps[0].requestId as string;
    await sim.control.chain(42161).syncNow();
    await sim.control.solver.idle();
    expect(sim.control.requests.get(requestId)?.status).toBe('pending');
    expect((await admin('POST', '/admin/chains/42161/reorg', { depth: 1 })).body).toEqual({ chainId: 42161, depth: 1 });
    await sim.control.solver.idle();
    expect(sim.control.requests.get(requestId)).toMatchObject({ status: 'failure', failReason: 'DEPOSIT_REORGED' });
    sim.control.solver.clearRules();
  });

  it('automine and interval mining switch; bad input is a 4xx with an errorCode', async () => {
    expect((await admin('POST', '/admin/chains/1/automine', { enabled: false })).body).toEqual({ chainId: 1, automine: false });
    expect((await admin('POST', '/admin/chains/1/interval-mining', { seconds: 0 })).body).toEqual({ chainId: 1, intervalSeconds: 0 });
    expect((await admin('POST', '/admin/chains/1/automine', { enabled: true })).body).toEqual({ chainId: 1, automine: true });
    const unknown = await admin('POST', '/admin/chains/10/mine', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body.errorCode).toBe('UNKNOWN_CHAIN');
    for (const [path, body] of [['/admin/chains/1/reorg', { depth: 0 }], ['/admin/clock/advance', { seconds: -1 }], ['/admin/chains/x/mine', {}], ['/admin/chains/1/mine', { blocks: 1, extra: 1 }]] as const) {
      const answer = await admin('POST', path, body);
      expect(answer.status, path).toBe(400);
      expect(typeof answer.body.errorCode, path).toBe('string');
    }
  });

  it("what the chain refuses is a 400, never a 500: a reorg that would take the simulator's contracts off the chain, a revert to a snapshot that does not exist", async () => {
    const head = Number(await publicClientFor(sim, 1).getBlockNumber());
    const deep = await admin('POST', '/admin/chains/1/reorg', { depth: 3 });
    expect(deep.status).toBe(400);
    expect(deep.body).toMatchObject({ errorCode: 'CHEAT_CALL_REFUSED' });
    // (the OpenAPI fuzz found it: a reorg of depth 18 on a fresh chain left the price look-ups reading pools that were gone, a 500)
    expect(deep.body.message).toBe(`chain 1 refused a reorg of depth 3: a reorg of depth 3 would replace blocks of the simulator's own setup (its contracts, pool and the solver's allowances are not all there at block ${head - 3})`);
    expect((await admin('POST', '/admin/chains/1/reorg', { depth: head + 5 })).body.message).toBe(`chain 1 refused a reorg of depth ${head + 5}: a reorg of depth ${head + 5} is deeper than the chain (${head} blocks)`);
    // above the setup, a reorg goes through
    await admin('POST', '/admin/chains/1/mine', { blocks: 2 });
    expect((await admin('POST', '/admin/chains/1/reorg', { depth: 2 })).status).toBe(200);
    const price = await fetch(`${sim.baseUrl}/currencies/token/price/v2?chainId=1&address=0x0000000000000000000000000000000000000000`);
    expect(price.status).toBe(200);
    const missing = await admin('POST', '/admin/chains/1/revert', { id: '0xffff' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('no snapshot 0xffff');
  });

  it('an EVM reorg deeper than the states Anvil still holds (past block 800) is refused before it wipes the chain', async () => {
    await admin('POST', '/admin/chains/8453/mine', { blocks: 800 });
    const deep = await admin('POST', '/admin/chains/8453/reorg', { depth: 11 });
    expect(deep.status).toBe(400);
    expect(deep.body.message).toMatch(/^chain 8453 refused a reorg of depth 11: a reorg of depth 11 on a chain \d+ blocks long: Anvil then holds only its last 10 states/);
    expect((await admin('POST', '/admin/chains/8453/reorg', { depth: 10 })).status).toBe(200);
    const price = await fetch(`${sim.baseUrl}/currencies/token/price/v2?chainId=8453&address=0x0000000000000000000000000000000000000000`);
    expect(price.status).toBe(200);
  });
});
