import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance';
import type { RunningSimulator } from '../../src/simulator';
import { startTestSimulator } from '../support/startTestSimulator';

/**
 * The conformance suite is a well-behaved client of SPEC §8's per-key listing rate: every call it
 * makes to GET /requests/v3 (listings, and the record look-ups of the lifecycle checks) waits out a
 * 429 and asks again. Here the rate is 2 per second, so the lifecycle checks meet 429s all along.
 */
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startTestSimulator({ listingRatePerSecond: 2 });
});
afterAll(async () => {
  await sim?.stop();
});

describe('conformance under the listing rate', () => {
  it('the lifecycle checks that read request records pass, 429s waited out', async () => {
    // the key's budget for this second is spent before the suite starts
    const list = () => fetch(`${sim.baseUrl}/requests/v3?limit=1`, { headers: { 'x-api-key': sim.apiKey } }).then((response) => response.status);
    while ((await list()) !== 429);
    const report = await runConformance({
      baseUrl: sim.baseUrl,
      apiKey: sim.apiKey,
      mode: 'full',
      only: ['lifecycle.refund-fail-reason', 'lifecycle.refund-not-made-reason'],
      privateKey: sim.accounts[5]!.privateKey as `0x${string}`,
    });
    expect(report.results.map((result) => [result.id, result.outcome])).toEqual([
      ['lifecycle.refund-fail-reason', 'pass'],
      ['lifecycle.refund-not-made-reason', 'pass'],
    ]);
  });
});
