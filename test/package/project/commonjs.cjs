// A CommonJS script: require the simulator, read /chains, stop; and the names each subpath gives
// `require` and `import` in this one process (the test compares them).
const { startSimulator } = require('intentsim');
const anvilChildren = require('./anvilChildren.cjs');

const SUBPATHS = ['intentsim', 'intentsim/conformance', 'intentsim/scenario', 'intentsim/jest'];
const exportedNames = (namespace) => Object.keys(namespace).filter((name) => name !== 'default').sort();

(async () => {
  const sim = await startSimulator({ chains: [{ id: 1 }], port: 0 });
  const { chains } = await (await fetch(`${sim.baseUrl}/chains`)).json();
  const names = await Promise.all(SUBPATHS.map(async (subpath) => [subpath, exportedNames(require(subpath)), exportedNames(await import(subpath))]));
  console.log(JSON.stringify({ chains: chains.map((chain) => chain.id), anvils: anvilChildren(), names }));
  await sim.stop();
})();
