import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { listeningPid } from '../support/listeningPid';
import { pauseProcess, resumeProcess } from '../support/pauseProcess';
import { pooledChains } from '../support/pooledNodes';
import { startTestSimulator } from '../support/startTestSimulator';

// covers: errorCode:REQUEST_TIMED_OUT, errorCode:RPC_HTTP_ERROR, endpoint:POST /quote/v2, endpoint:POST /price, endpoint:POST /quote

function nativeBridge(sim: RunningSimulator, origin = 1, destination = 8453) {
  return nativeBridgeBody(sim.accounts[6]!.address, { originChainId: origin, destinationChainId: destination });
}

function adminJson(sim: RunningSimulator, method: string, path: string, body?: unknown) {
  return requestJson(`${sim.baseUrl}${path}`, { method, body });
}

describe('transient chain RPC failures while quoting (SPEC §7.1, §9 2026-06-05)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await sharedTestSimulator();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('an admin rpc-timeout / rpc-error fault on either chain answers REQUEST_TIMED_OUT / RPC_HTTP_ERROR on every quote route, until cleared', async () => {
    expect((await adminJson(sim, 'POST', '/admin/faults', { chainId: 1, kind: 'rpc-timeout' })).status).toBe(201);
    for (const path of ['/quote/v2', '/quote', '/price']) {
      const response = await postJson(`${sim.baseUrl}${path}`, nativeBridge(sim));
      expect(response.status, path).toBe(400);
      expect(response.body, path).toMatchObject({ errorCode: 'REQUEST_TIMED_OUT', statusCode: 400 });
      expect(response.body.message).toContain('chain 1 RPC');
      expect(response.body.message).toContain('retry');
    }
    expect((await adminJson(sim, 'POST', '/admin/faults', { chainId: 1, kind: 'rpc-error' })).body.faults).toEqual([{ chainId: 1, kind: 'rpc-error' }]);
    expect((await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim))).body.errorCode).toBe('RPC_HTTP_ERROR');

    // the destination's RPC is read while quoting too (the fill is simulated there)
    await adminJson(sim, 'DELETE', '/admin/faults');
    await adminJson(sim, 'POST', '/admin/faults', { chainId: 8453, kind: 'rpc-error' });
    const destination = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim));
    expect(destination.body).toMatchObject({ errorCode: 'RPC_HTTP_ERROR' });
    expect(destination.body.message).toContain('chain 8453 RPC');
    expect((await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim, 1, 42161))).status).toBe(200);

    expect((await adminJson(sim, 'DELETE', '/admin/faults?chainId=8453')).body.faults).toEqual([]);
    expect((await getJson(`${sim.baseUrl}/admin/faults`)).body).toEqual({ faults: [] });
    expect((await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim))).status).toBe(200);
  });

  it('a fault affects quotes only: a request already quoted still fills through the faulty chain', async () => {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim));
    expect(quote.status).toBe(200);
    await adminJson(sim, 'POST', '/admin/faults', { chainId: 8453, kind: 'rpc-timeout' });
    await adminJson(sim, 'POST', '/admin/faults', { chainId: 1, kind: 'rpc-timeout' });
    try {
      await executeQuoteSteps(sim, sim.accounts[6]!.privateKey as Hex, quote.body);
      expect((await waitForSettledStatus(sim.baseUrl, quote.body.steps[0].requestId)).status).toBe('success');
    } finally {
      await adminJson(sim, 'DELETE', '/admin/faults');
    }
  });

  it('bad fault bodies are 400 INVALID_INPUT_PARAMS', async () => {
    for (const body of [{ chainId: 1, kind: 'slow' }, { chainId: 999, kind: 'rpc-error' }, { kind: 'rpc-error' }, { chainId: 1, kind: 'rpc-error', extra: 1 }]) {
      const response = await adminJson(sim, 'POST', '/admin/faults', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.errorCode).toBe('INVALID_INPUT_PARAMS');
    }
  });
});

describe('REQUEST_TIMED_OUT from a real cause: the origin Anvil process paused (SIGSTOP)', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    // the worker's first pooled set: while this file runs, only its own simulator uses those nodes
    // (the worker's shared one is on the second set), so pausing one stops nobody else
    sim = await startTestSimulator({ chains: pooledChains([1, 8453]), quoteRpcTimeoutMs: 300 });
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('a quote whose chain does not answer in time is REQUEST_TIMED_OUT; once it answers again, quotes succeed', async () => {
    const pid = listeningPid(Number(new URL(pooledChains([1])[0]!.rpcUrl).port), 'anvil')!;
    expect(pid).toBeGreaterThan(0);
    await pauseProcess(pid); // stopped for sure, before the quote is sent
    let paused: { status: number; body: any };
    try {
      paused = await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim));
    } finally {
      resumeProcess(pid);
    }
    expect(paused.status).toBe(400);
    expect(paused.body).toMatchObject({ errorCode: 'REQUEST_TIMED_OUT', statusCode: 400 });
    expect(paused.body.message).toMatch(/chain 1 RPC \w+ timed out/);
    expect((await postJson(`${sim.baseUrl}/quote/v2`, nativeBridge(sim))).status).toBe(200);
  });
});
