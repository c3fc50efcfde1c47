import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadScenarioFile, ScenarioFileError } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { ReusedScenarioSimulator } from '../../src/scenario/ReusedScenarioSimulator';
import { pooledNodes } from '../support/pooledNodes';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'intentsim-scenario-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BRIDGE = `description: a bridge
chains: [1, 8453]
webhook: { answers: [500] }
steps:
  - quote: { as: q, originChainId: 1, destinationChainId: 8453, originCurrency: ETH, destinationCurrency: ETH, amount: "10000000000000000", recipient: fresh:bob }
  - deposit: { request: q }
  - advanceClock: { seconds: 2 }
  - expect: { request: q, status: success, statuses: [waiting, pending, submitted, success], webhooks: [waiting, pending, submitted, success] }
`;

function loadError(text: string): ScenarioFileError {
  try {
    loadScenarioFile('x.yaml', text);
  } catch (error) {
    if (error instanceof ScenarioFileError) return error;
    throw error;
  }
  throw new Error('the file loaded');
}

describe('scenario files: errors name the file, the line and the field', () => {
  it('invalid YAML', () => {
    expect(loadError('steps:\n  - quote: { as: q\n').message).toMatch(/^x\.yaml:\d+: not valid YAML/);
  });
  it('an unknown step kind; a name no earlier quote gave', () => {
    expect(loadError('steps:\n  - deposit: { request: q }\n').message).toBe('x.yaml:2: steps[0].deposit.request: no earlier quote is named "q"');
    expect(loadError('steps:\n  - mine: { chainId: 1 }\n  - teleport: {}\n').message).toMatch(/^x\.yaml:3: steps\[1\]\.teleport: unknown step kind; one of quote, deposit/);
  });
  it('a bad field value, at its own line', () => {
    const error = loadError('steps:\n  - quote:\n      as: q\n      originChainId: 1\n      destinationChainId: 8453\n      originCurrency: ETH\n      destinationCurrency: ETH\n      amount: "1.5"\n');
    expect(error.line).toBe(8);
    expect(error.field).toBe('steps[0].quote.amount');
    expect(error.message).toContain('an integer string in the smallest unit');
  });
  it('a step with two kinds, an unknown top-level key, an expectation of an unknown failReason', () => {
    expect(loadError('steps:\n  - { mine: { chainId: 1 }, reorg: { chainId: 1, depth: 1 } }\n').message).toContain('a step has exactly one key, its kind; found mine, reorg');
    expect(loadError('colour: red\nsteps: [{ mine: { chainId: 1 } }]\n').message).toMatch(/^x\.yaml:1: .*colour/);
    expect(loadError(BRIDGE.replace('status: success', 'failReason: SOMETHING_ELSE')).field).toBe('steps[3].expect.failReason');
  });
});

describe('contract steps: errors at load time', () => {
  it('a contract name given twice; a destination call with both function and data', () => {
    const deploy = '  - deployContract: { as: c, chainId: 42161, name: CallRecorder }\n';
    expect(loadError(`steps:\n${deploy}${deploy}`).message).toBe('x.yaml:3: steps[1].deployContract.as: "c" names another contract already');
    const quote = '  - quote: { as: q, originChainId: 8453, destinationChainId: 42161, originCurrency: ETH, destinationCurrency: ETH, amount: "1", txs: [{ to: c, function: record, data: "0x" }] }\n';
    expect(loadError(`steps:\n${quote}`).message).toMatch(/^x\.yaml:2: steps\[0\]\.quote\.txs\[0\]\.function: a call has either function \(and args\) or data/);
  });
});

describe('running scenarios', () => {
  it('contract steps: deploy, call, sign; a call that reverts, a contract or function that does not exist stop the scenario there, saying why', async () => {
    const steps = (last: string) => `chains: [8453, 42161]
steps:
  - deployContract: { as: recorder, chainId: 42161, name: CallRecorder, from: 1 }
  - callContract: { contract: recorder, function: record, args: [7], value: "5", from: 1 }
  - deployContract: { as: market, chainId: 42161, name: MarketplaceOrderBook, from: 1 }
  - callContract: { contract: market, function: cancel, from: 4, args: [{ offerer: account:4, token: contract:recorder, tokenId: 1, amount: 4, price: "4", startTime: 0, endTime: 9, fulfiller: account:3, salt: 1 }] }
  - expectBalance: { chainId: 42161, address: contract:recorder, currency: ETH, equals: "5" }
${last}`;
    const runText = async (text: string) => {
      writeFileSync(join(dir, 'contracts.yaml'), text);
      return runScenario(loadScenarioFile(join(dir, 'contracts.yaml')), { nodes: pooledNodes() });
    };
    const reverted = await runText(steps('  - callContract: { contract: recorder, function: fail, args: [3], from: 1 }\n'));
    expect(reverted.mismatches, reverted.timeline).toEqual([]);
    expect(reverted.timeline).toMatch(/step 1 \(line 3\) deployContract: recorder = CallRecorder at 0x[0-9a-fA-F]{40} on 42161, deployed by 0x70997970C51812dc3A010C7d01b50e0d17dc79C8/);
    expect(reverted.timeline).toContain('step 4 (line 6) callContract: market.cancel({…}) from 0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65 on 42161');
    expect(reverted.error).toBe('step 6 (line 8) callContract: recorder.fail(3) from 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 on 42161: it would revert: Refused(3)');
    const unknownFunction = await runText(steps('  - callContract: { contract: recorder, function: fly, from: 1 }\n'));
    expect(unknownFunction.error).toMatch(/callContract: CallRecorder has no function fly \(it has .*record/);
    const unknownContract = await runText(steps('  - callContract: { contract: nowhere, chainId: 42161, function: fly }\n'));
    expect(unknownContract.error).toMatch(/chain 42161 has no currency nowhere/);
    const unknownRef = await runText(steps('  - callContract: { contract: recorder, function: record, args: [contract:nowhere] }\n'));
    expect(unknownRef.error).toMatch(/no contract named "nowhere" on chain 42161 \(deployed: recorder, market; the chain's own: depository, .*serviceReceiver.*pool\)/);
  });

  it('the same seed and file give the same timeline, byte for byte (again on the simulator reset); webhooks retried on the virtual clock', async () => {
    writeFileSync(join(dir, 'bridge.yaml'), BRIDGE);
    const scenario = loadScenarioFile(join(dir, 'bridge.yaml'));
    // the second run on the first one's simulator put back to its start, the third (another seed) on a new one
    const reused = new ReusedScenarioSimulator();
    onTestFinished(() => reused.stop());
    const first = await runScenario(scenario, { nodes: pooledNodes(), seed: 7, reuse: { simulator: reused } });
    const second = await runScenario(scenario, { nodes: pooledNodes(), seed: 7, reuse: { simulator: reused } });
    expect(reused.taken).toEqual({ started: 1, reset: 1 });
    expect(first.mismatches, first.timeline).toEqual([]);
    expect(second.timeline).toBe(first.timeline);
    // the first attempt of each event was answered 500, the retry a second later 200
    expect(first.timeline).toMatch(/\+ {4}0\.000s {2}q {2}webhook waiting attempt 1 → 500/);
    expect(first.timeline).toMatch(/\+ {4}2\.000s {2}q {2}webhook waiting attempt 2 → 200/);
    expect(first.timeline).not.toMatch(/127\.0\.0\.1|\/tmp\//);
    // another seed: other request ids
    const third = await runScenario(scenario, { nodes: pooledNodes(), seed: 8, reuse: { simulator: reused } });
    expect(reused.taken).toEqual({ started: 2, reset: 1 });
    expect(third.timeline).not.toBe(first.timeline);
  });

  it('a changed expectation fails with a diff naming the scenario and the step; --update makes it what happened; --junit and --out are written', async () => {
    const scenarios = join(dir, 'lib');
    cpSync(join('scenarios', 'bridge', 'native-bridge-success.yaml'), join(scenarios, 'one.yaml'));
    const file = join(scenarios, 'one.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('status: success', 'status: refund'));
    const cli = (args: string[]) => run(process.execPath, ['bin/intentsim.js', 'scenario', 'run', scenarios, ...args], { encoding: 'utf8' }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
    );
    // one failing run (a process with its chains costs seconds of CPU): the diff, --junit, --out, and --update
    // rewriting the file, while the run still fails
    const failed = await cli(['--junit', join(dir, 'junit.xml'), '--out', join(dir, 'out1'), '--update']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/✗ one .*one\.yaml\n {4}step 3 \(line 9\): native-bridge-success status|✗ one/);
    expect(failed.stdout).toContain('- expected "refund"');
    expect(failed.stdout).toContain('+ actual   "success"');
    expect(failed.stdout).toContain('0 passed, 1 failed');
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toMatch(/<testsuite name="intentsim scenarios" tests="1" failures="1" skipped="0">[\s\S]*expected &quot;refund&quot;, actual &quot;success&quot;/);
    expect(readFileSync(file, 'utf8')).toContain('status: success');
    expect(readFileSync(file, 'utf8')).not.toContain('status: refund');
    expect(readdirSync(join(dir, 'out1'))).toEqual(['one.timeline']);
    // the updated file passes, and another process (this one, on the pooled chains) writes the same
    // bytes but for the expectation met (a second CLI run cost a process and its chains; a passing
    // CLI run's exit 0 and count: test/scenario/scenarioStepBounds.test.ts, scenarioShards.test.ts)
    const passed = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
    expect(passed.passed, passed.timeline).toBe(true);
    expect(passed.timeline).toBe(readFileSync(join(dir, 'out1', 'one.timeline'), 'utf8').replace(/expect: bridge: bridge status is "success"/, 'expect: bridge: as expected'));
  });
});
