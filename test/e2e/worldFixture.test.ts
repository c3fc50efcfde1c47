// covers: status:success
import { afterAll, beforeEach, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator';
import { requestJson } from '../support/bridgeClient';
import { pooledChains } from '../support/pooledNodes';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';

// docs/control-plane.md ("World snapshots") shows these lines as its loadFixture pattern: one kept
// world snapshot, reverted before each test, so that every test starts from the same world.
const options = { port: 0, env: {}, log: () => undefined, chains: pooledChains([1, 8453]) };

const sim = await startSimulator(options);
const clean = await sim.snapshot({ keep: true }); // every chain, requests, rules, webhooks, clock
beforeEach(() => sim.revert(clean));               // then the same world again
afterAll(() => sim.stop());

const listed = async (): Promise<string[]> => {
  const answer = await requestJson(`${sim.baseUrl}/requests/v3?limit=50`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });
  expect(answer.status).toBe(200);
  return (answer.body.requests as Array<{ id: string }>).map((request) => request.id);
};
const startClock = sim.control.clock.now();

it('a test that changes the world: a bridge filled, an hour of clock', async () => {
  expect(await listed()).toEqual([]);
  const bridged = await quoteAndDepositNative(sim, 1, { origin: 1, destination: 8453 });
  expect(sim.control.requests.get(bridged.requestId)?.status).toBe('success');
  await sim.control.advanceTime(3600);
  expect(await listed()).toEqual([bridged.requestId]);
});

it('the next test starts from the same world: no request listed, the clock where it stood, and the same bridge again succeeds', async () => {
  expect(await listed()).toEqual([]);
  expect(sim.control.clock.now() - startClock).toBeLessThan(3_600_000);
  const bridged = await quoteAndDepositNative(sim, 1, { origin: 1, destination: 8453 });
  expect(sim.control.requests.get(bridged.requestId)?.status).toBe('success');
  expect(await listed()).toEqual([bridged.requestId]);
});

it('reset() is the world as the start left it', async () => {
  await quoteAndDepositNative(sim, 2, { origin: 1, destination: 8453 });
  await sim.reset();
  expect(await listed()).toEqual([]);
});
