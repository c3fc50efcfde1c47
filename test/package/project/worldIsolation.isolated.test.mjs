// Two tests on the shared simulator: the second sees the start's world only when intentsim/vitest/isolate resets it before each test.
import { createRequire } from 'node:module';
import { expect, inject, test } from 'vitest';

const { START_BALANCE, bridgeOnce, listedRequests, balanceOnChain1 } = createRequire(import.meta.url)('./worldIsolation.cjs');

test('a bridge is listed and spends the account', async () => {
  const context = inject('intentsim');
  const requestId = await bridgeOnce(context);
  expect(await listedRequests(context)).toEqual([requestId]);
  expect(await balanceOnChain1(context)).toBeLessThan(START_BALANCE);
});

test("the next test sees an empty listing and the start's balance", async () => {
  const context = inject('intentsim');
  expect(await listedRequests(context)).toEqual([]);
  expect(await balanceOnChain1(context)).toBe(START_BALANCE);
});
