import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance';
import type { RunningSimulator } from '../../src/simulator';
import { LISTING_UNTHROTTLED, startTestSimulator } from '../support/startTestSimulator';
import { startDeviationProxy } from './deviationProxy';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startTestSimulator(LISTING_UNTHROTTLED);
});
afterAll(async () => {
  await sim?.stop();
});

describe('full-mode checks skip, with the reason, what the run cannot do', () => {
  it('without a funded account, every paying check skips and names the missing account', async () => {
    const report = await runConformance({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, mode: 'full', only: ['lifecycle', 'webhooks'] });
    expect(report.results.length).toBeGreaterThan(0);
    for (const result of report.results) {
      expect(result.outcome, result.id).toBe('skip');
      expect(result.skipReason).toMatch(/funded account/);
    }
  });

  it('without a control plane, the scripted failures and the webhook checks skip and name it', async () => {
    const noAdmin = await startDeviationProxy(sim.baseUrl, {
      response: (request) => (request.path.startsWith('/admin/') ? { status: 404, body: { errorCode: 'NOT_FOUND', message: 'no such route' } } : undefined),
    });
    try {
      const report = await runConformance({
        baseUrl: noAdmin.baseUrl,
        apiKey: sim.apiKey,
        mode: 'full',
        only: ['lifecycle.refund-fail-reason', 'lifecycle.refund-not-made-reason', 'webhooks'],
        privateKey: sim.accounts[4]!.privateKey as `0x${string}`,
      });
      for (const result of report.results) {
        expect(result.outcome, result.id).toBe('skip');
        expect(result.skipReason).toMatch(/control plane/);
      }
    } finally {
      await noAdmin.close();
    }
  });

  it('read-only runs none of them', async () => {
    const report = await runConformance({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, mode: 'read-only', only: ['lifecycle', 'webhooks'] });
    expect(report.results).toEqual([]);
  });
});

describe('the webhook run leaves the target as it found it', () => {
  it("puts back the key's earlier webhook endpoint", async () => {
    const endpoint = `${sim.baseUrl}/admin/api-keys/${sim.apiKey}/webhook`;
    const earlier = { url: 'http://127.0.0.1:9/integrator-webhook', enabled: true, headers: { 'X-Team': 'payments' } };
    expect((await fetch(endpoint, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(earlier) })).status).toBe(200);
    const report = await runConformance({ baseUrl: sim.baseUrl, apiKey: sim.apiKey, mode: 'full', only: ['webhooks.signature'], privateKey: sim.accounts[4]!.privateKey as `0x${string}` });
    expect(report.results.map((result) => result.outcome)).toEqual(['pass']);
    expect(await (await fetch(endpoint)).json()).toMatchObject(earlier);
  });
});

