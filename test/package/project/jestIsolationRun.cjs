// What Jest does with intentsim/jest/isolate: the global setup in the main process (chains 1 and
// 8453), then worldIsolation.jestWorker.cjs's test files in a worker process: as Jest's only worker
// (--runInBand: JEST_WORKER_ID=1) the file with the isolation setup file and the one without it, then
// as a second parallel worker (JEST_WORKER_ID=2) the one with it.
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { createGlobalSetup, globalTeardown } = require('intentsim/jest');

/**
 * Each test file's result in a worker's TAP (a top-level describe per file): its tests passed and
 * failed, whether the file passed, and whether it refused as a second parallel worker; a failing run
 * exits 1 (execFile rejects with its output).
 */
async function runWorker(env) {
  const { stdout } = await promisify(execFile)(process.execPath, ['--test-reporter=tap', 'worldIsolation.jestWorker.cjs'], { env: { ...process.env, ...env }, timeout: 60_000 }).catch((failed) => failed);
  const files = {};
  for (const block of stdout.split(/^# Subtest: /m).slice(1)) {
    const name = block.slice(0, block.indexOf('\n'));
    const count = (result) => block.match(new RegExp(`^    ${result} \\d+ - `, 'gm'))?.length ?? 0;
    files[name] = {
      pass: count('ok'),
      fail: count('not ok'),
      ok: new RegExp(`^ok \\d+ - ${name}$`, 'm').test(block),
      refused: /intentsim\/jest\/isolate: test files run in parallel \(JEST_WORKER_ID=2\).*jest --runInBand/.test(block),
    };
  }
  return files;
}

/** The run; prints its one JSON line. Run as a script, or required (the package test runs it after jestRun.cjs's in one process). */
async function jestIsolationRun() {
  await createGlobalSetup({ chains: [{ id: 1 }, { id: 8453 }] })();
  try {
    const inBand = await runWorker({ JEST_WORKER_ID: '1' });
    const parallel = await runWorker({ JEST_WORKER_ID: '2', ISOLATED_FILE_ONLY: '1' });
    console.log(JSON.stringify({ isolated: inBand.isolated, shared: inBand.shared, parallel: parallel.isolated, files: [Object.keys(inBand), Object.keys(parallel)] }));
  } finally {
    await globalTeardown();
  }
}

module.exports = jestIsolationRun;
if (require.main === module) jestIsolationRun();
