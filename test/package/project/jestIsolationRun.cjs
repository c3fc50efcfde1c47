// What Jest does with intentsim/jest/isolate: the global setup in the main process (chains 1 and
// 8453), then worldIsolation.jestWorker.cjs in a worker process three times: as Jest's only worker
// (--runInBand: JEST_WORKER_ID=1), without the isolation setup file, and as a second parallel worker.
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { createGlobalSetup, globalTeardown } = require('intentsim/jest');

/** The worker's TAP counts, and whether it refused as a second parallel worker; a failing run exits 1 (execFile rejects with its output). */
async function runWorker(env) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--test', '--test-reporter=tap', 'worldIsolation.jestWorker.cjs'], { env: { ...process.env, ...env }, timeout: 60_000 }).catch((failed) => failed);
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(stdout)?.[1]);
  return { pass: count('pass'), fail: count('fail'), refused: /intentsim\/jest\/isolate: test files run in parallel \(JEST_WORKER_ID=2\).*jest --runInBand/.test(stdout) };
}

(async () => {
  await createGlobalSetup({ chains: [{ id: 1 }, { id: 8453 }] })();
  try {
    const isolated = await runWorker({ JEST_WORKER_ID: '1' });
    const shared = await runWorker({ JEST_WORKER_ID: '1', WITHOUT_ISOLATION: '1' });
    const parallel = await runWorker({ JEST_WORKER_ID: '2' });
    console.log(JSON.stringify({ isolated, shared, parallel }));
  } finally {
    await globalTeardown();
  }
})();
