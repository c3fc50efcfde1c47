import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { pooledChains } from '../support/pooledNodes';
import { startTestSimulator } from '../support/startTestSimulator';

/** `--listing-rate` (config `listingRatePerSecond`): the per-key rate of GET /requests/v3, 20 by default (SPEC §8). */
describe('listingRatePerSecond', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await startTestSimulator({ chains: pooledChains([8453]), listingRatePerSecond: 3, clockMode: 'manual' });
  });
  afterAll(async () => {
    await sim?.stop();
  });
  const list = () => fetch(`${sim.baseUrl}/requests/v3?limit=1`, { headers: { 'x-api-key': sim.apiKey } });

  it('answers that many requests of a key per second of the virtual clock, and 429 with Retry-After beyond', async () => {
    for (let i = 0; i < 3; i++) expect((await list()).status).toBe(200);
    const limited = await list();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('ratelimit-policy')).toBe('3;w=1');
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ errorCode: 'TOO_MANY_REQUESTS' });
    sim.control.clock.advance(1000);
    expect((await list()).status).toBe(200);
  });
});
