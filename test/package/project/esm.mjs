// A plain Node ESM script: import the simulator, read /chains, stop.
import { startSimulator } from 'intentsim';
import anvilChildren from './anvilChildren.cjs';

const sim = await startSimulator({ chains: [{ id: 1 }], port: 0 });
const { chains } = await (await fetch(`${sim.baseUrl}/chains`)).json();
console.log(JSON.stringify({ chains: chains.map((chain) => chain.id), anvils: anvilChildren() }));
await sim.stop();
