// A test file as a Jest worker runs it, with intentsim/jest/isolate in setupFilesAfterEnv: node:test
// stands in for Jest (not installed here), its beforeEach put where Jest puts its globals.
const assert = require('node:assert/strict');
const { beforeEach, test } = require('node:test');
const { intentsimContext } = require('intentsim/jest');
const { START_BALANCE, bridgeOnce, listedRequests, balanceOnChain1 } = require('./worldIsolation.cjs');

globalThis.beforeEach = beforeEach;
if (process.env.WITHOUT_ISOLATION !== '1') require('intentsim/jest/isolate');

test('a bridge is listed and spends the account', async () => {
  const requestId = await bridgeOnce(intentsimContext());
  assert.deepEqual(await listedRequests(intentsimContext()), [requestId]);
  assert.ok((await balanceOnChain1(intentsimContext())) < START_BALANCE);
});

test("the next test sees an empty listing and the start's balance", async () => {
  assert.deepEqual(await listedRequests(intentsimContext()), []);
  assert.equal(await balanceOnChain1(intentsimContext()), START_BALANCE);
});
