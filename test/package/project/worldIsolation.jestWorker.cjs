// Two test files as one Jest worker runs them with --runInBand (one process, JEST_WORKER_ID=1, each file
// with its own module registry and its project's setup files): the first of a project with
// intentsim/jest/isolate in setupFilesAfterEnv, the second of a project without it (left out with
// ISOLATED_FILE_ONLY=1, as a second parallel worker runs only the first). node:test stands in for Jest
// (not installed here): a describe per file, node:test's beforeEach put where Jest puts its globals.
const assert = require('node:assert/strict');
const { beforeEach, describe, test } = require('node:test');
const { intentsimContext } = require('intentsim/jest');
const { START_BALANCE, bridgeOnce, listedRequests, balanceOnChain1 } = require('./worldIsolation.cjs');

function worldTests() {
  test('a bridge is listed and spends the account', async () => {
    const requestId = await bridgeOnce(intentsimContext());
    assert.deepEqual(await listedRequests(intentsimContext()), [requestId]);
    assert.ok((await balanceOnChain1(intentsimContext())) < START_BALANCE);
  });

  test("the next test sees an empty listing and the start's balance", async () => {
    assert.deepEqual(await listedRequests(intentsimContext()), []);
    assert.equal(await balanceOnChain1(intentsimContext()), START_BALANCE);
  });
}

describe('isolated', () => {
  globalThis.beforeEach = beforeEach;
  try {
    require('intentsim/jest/isolate'); // its beforeEach is this file's (this describe's)
  } finally {
    delete globalThis.beforeEach;
  }
  worldTests();
});

if (process.env.ISOLATED_FILE_ONLY !== '1') describe('shared', worldTests);
