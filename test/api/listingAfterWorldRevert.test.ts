import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import { nativeBridgeBody, requestJson } from '../support/bridgeClient';
import { pooledChains } from '../support/pooledNodes';

// GET /requests/v3's rate limit counts requests at times of the virtual clock, which a world revert
// sets back: the counts go back with it, so a world reset does not leave the later world's requests
// counted against the first ones after it (a scenario run after another one found none of its requests).

const RATE = 3;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: pooledChains([1, 8453]), listingRatePerSecond: RATE, clockMode: 'manual' });
});

afterAll(async () => {
  await sim?.stop();
});

const listById = (id: string) => requestJson(`${sim.baseUrl}/requests/v3?id=${id}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });

async function quote(): Promise<string> {
  const answer = await requestJson(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'x-api-key': sim.apiKey }, body: nativeBridgeBody(sim.accounts[1]!.address) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.steps[0].requestId as string;
}

describe('listing after a world revert', () => {
  it('a request made after a reset is listed by id, however many listings the world left behind made', async () => {
    sim.control.clock.advance(5000);
    const before = await quote();
    for (let i = 0; i < RATE; i++) expect((await listById(before)).body.requests).toHaveLength(1);
    expect((await listById(before)).status).toBe(429);

    await sim.reset(); // the clock is back at the start, before those listings
    const after = await quote();
    const listed = await listById(after);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.requests.map((record: { id: string }) => record.id)).toEqual([after.toLowerCase()]);
  });

  it('a revert gives back the counts the snapshot held: those before it still count', async () => {
    await sim.reset();
    sim.control.clock.advance(5000);
    const requestId = await quote();
    expect((await listById(requestId)).status).toBe(200);
    const id = await sim.snapshot();
    for (let i = 1; i < RATE; i++) expect((await listById(requestId)).status).toBe(200);
    expect((await listById(requestId)).status).toBe(429);

    await sim.revert(id);
    for (let i = 1; i < RATE; i++) expect((await listById(requestId)).status).toBe(200);
    expect((await listById(requestId)).status).toBe(429);
  });
});
