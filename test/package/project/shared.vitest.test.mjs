// A Vitest test file: inject('intentsim') is the simulator the run's global setup started.
import { expect, inject, test } from 'vitest';

test('inject gives the run its simulator', async () => {
  const { baseUrl, chains, accounts, apiKey } = inject('intentsim');
  const body = await (await fetch(`${baseUrl}/chains`)).json();
  expect(body.chains.map((chain) => chain.id)).toEqual([1]);
  expect(chains.map((chain) => chain.id)).toEqual([1]);
  expect(accounts).toHaveLength(10);
  expect(apiKey).toMatch(/./);
});
