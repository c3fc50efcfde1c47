// A CommonJS script: require the simulator, read /chains, stop.
const { startSimulator } = require('intentsim');
const anvilChildren = require('./anvilChildren.cjs');

(async () => {
  const sim = await startSimulator({ chains: [{ id: 1 }], port: 0 });
  const { chains } = await (await fetch(`${sim.baseUrl}/chains`)).json();
  console.log(JSON.stringify({ chains: chains.map((chain) => chain.id), anvils: anvilChildren() }));
  await sim.stop();
})();
