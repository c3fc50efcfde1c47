// What Jest does with intentsim/jest/global-setup and global-teardown: the setup in the main process,
// test files in worker processes (which read the context from the environment), then the teardown.
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const globalSetup = require('intentsim/jest/global-setup').default;
const globalTeardown = require('intentsim/jest/global-teardown').default;
const anvilChildren = require('./anvilChildren.cjs');

const worker = `
  const { intentsimContext } = require('intentsim/jest');
  const { baseUrl } = intentsimContext();
  fetch(baseUrl + '/chains').then((r) => r.json()).then((body) => console.log(JSON.stringify(body.chains.map((c) => c.id))));
`;

/** The run; prints its one JSON line. Run as a script, or required (the package test runs it and jestIsolationRun.cjs's in one process). */
async function jestRun() {
  await globalSetup();
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', worker]);
  const chains = JSON.parse(stdout);
  const anvils = anvilChildren();
  await globalTeardown();
  console.log(JSON.stringify({ chains, anvils, contextCleared: process.env.INTENTSIM_CONTEXT === undefined }));
}

module.exports = jestRun;
if (require.main === module) jestRun();
