// Type-checked by tsc (nodenext and bundler resolution), then run: the package's types describe what it exports.
import { startSimulator, type RunningSimulator, type SimulatorChainSummary } from 'intentsim';
import { allChecks, type ConformanceReport } from 'intentsim/conformance';
import { loadScenarioFile, type ScenarioResult } from 'intentsim/scenario';
import { createGlobalSetup, intentsimContext, resetWorld, type IntentsimContext } from 'intentsim/jest';
import type {} from 'intentsim/vitest/isolate';
import type {} from 'intentsim/jest/isolate';
import { intentsimGlobalSetup } from 'intentsim/vitest';
import { createRequire } from 'node:module';

/** true when T is `any`: a declaration that failed to resolve (skipLibCheck hides the error itself). */
type IsAny<T> = 0 extends 1 & T ? true : false;
const resolved: [IsAny<RunningSimulator>, IsAny<RunningSimulator['control']['apiKeys']['db']>, IsAny<ConformanceReport>, IsAny<ScenarioResult>, IsAny<IntentsimContext>] = [false, false, false, false, false];
const setups: Array<(...args: never[]) => unknown> = [createGlobalSetup(), intentsimGlobalSetup(), intentsimContext, resetWorld, loadScenarioFile];
const anvilChildren = createRequire(import.meta.url)('./anvilChildren.cjs') as () => number[];

const sim: RunningSimulator = await startSimulator({ chains: [{ id: 1 }], port: 0 });
const summary: SimulatorChainSummary[] = sim.chains;
const body = (await (await fetch(`${sim.baseUrl}/chains`)).json()) as { chains: Array<{ id: number }> };
console.log(JSON.stringify({ chains: body.chains.map((chain) => chain.id), anvils: anvilChildren(), summary: summary.map((chain) => chain.rpcUrl.startsWith('http')), checks: allChecks.length > 0, resolved, setups: setups.length }));
await sim.stop();
