import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { pooledNodes } from '../support/pooledNodes';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'intentsim-step-bounds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SHORT_BTC = 'scenarios/non-evm/bvm-deposit-short.yaml';

/** The library's short Bitcoin deposit without its second `mine`: the refund stays in the mempool. */
const SHORT_BTC_ONE_BLOCK = `description: a short BTC deposit, one block mined
chains: [8253038, 8453]
steps:
  - quote: {as: btc, user: account:0, originChainId: 8253038, destinationChainId: 8453, originCurrency: BTC, destinationCurrency: USDC, amount: "1500000", recipient: fresh:carol}
  - deposit: {request: btc, amount: quoted-1000000}
  - mine: {chainId: 8253038}
  - expect: {request: btc, status: refund}
`;

describe('scenario steps are bounded and say what they wait on', () => {
  it('a short BTC deposit with one block mined fails at once at its expect, naming the refund held in the Bitcoin mempool', async () => {
    const started = performance.now();
    const result = await runScenario(loadScenarioFile('short-one-block.yaml', SHORT_BTC_ONE_BLOCK), { nodes: pooledNodes(), stepBounds: { wallSeconds: 20 } });
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(result.passed).toBe(false);
    expect(result.error, result.timeline).toBeUndefined();
    expect(result.mismatches).toHaveLength(1);
    const [mismatch] = result.mismatches;
    expect(mismatch).toMatchObject({ step: 4, line: 7, what: 'btc status', expected: 'refund', actual: 'pending' });
    expect(mismatch!.waits).toMatch(/^btc is pending: the solver waits for its refund [0-9a-f]{64} held in chain 8253038's mempool \(a later step must mine it\); chain\(s\) 8253038 mine only on a mine step/);
    expect(result.timeline).toContain("step 4 (line 7) expect: btc: btc status is \"pending\"; btc is pending: the solver waits for its refund");
  });

  it('a step that waits past its wall-time bound fails there, naming the step, the status and the chain holding transactions', async () => {
    const hang = `description: a deposit waiting for its receipt while automine is off
chains: [1, 8453]
steps:
  - quote: {as: q, user: 1, originChainId: 1, destinationChainId: 8453, originCurrency: USDC, destinationCurrency: USDC, amount: "20000000", recipient: fresh:ann}
  - automine: {chainId: 1, enabled: false}
  - deposit: {request: q}
  - expect: {request: q, status: success}
`;
    const started = performance.now();
    const result = await runScenario(loadScenarioFile('hang.yaml', hang), { nodes: pooledNodes(), stepBounds: { wallSeconds: 2 } });
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(result.error).toBe("step 3 (line 6) deposit: it did not end within 2 s of real time (the step's wall-time bound); pending: q is waiting; chain(s) 1 mine only on a mine step (automine off)");
    expect(result.timeline).toContain('step 3 (line 6) deposit: ERROR it did not end within 2 s');
    // the abandoned step wrote nothing after the error
    expect(result.timeline.trimEnd().split('\n').at(-1)).toContain('ERROR');
  });

  it("a step moving the virtual clock past its bound fails before it runs; the file's stepBounds is the default the option overrides", async () => {
    const text = `description: one long wait
chains: [1]
stepBounds: {clockSeconds: 60}
steps:
  - advanceClock: {seconds: 61}
`;
    const refused = await runScenario(loadScenarioFile('clock.yaml', text), { nodes: pooledNodes() });
    expect(refused.error).toBe("step 1 (line 5) advanceClock: it moves the virtual clock 61 s, past the step's virtual-time bound of 60 s (raise it with --step-clock-limit or the file's stepBounds.clockSeconds)");
    const allowed = await runScenario(loadScenarioFile('clock.yaml', text), { nodes: pooledNodes(), stepBounds: { clockSeconds: 61 } });
    expect(allowed.error, allowed.timeline).toBeUndefined();
  });

  it('scenario run --verbose prints each step as it starts on stderr; stdout and --out are as without it', async () => {
    const file = join(dir, 'short.yaml');
    writeFileSync(file, readFileSync(SHORT_BTC, 'utf8'));
    const verbose = await run(process.execPath, ['bin/intentsim.js', 'scenario', 'run', file, '--verbose', '--out', join(dir, 'verbose')], { encoding: 'utf8' });
    expect(verbose.stderr).toBe(['quote', 'deposit', 'expect', 'mine', 'expect', 'mine', 'expect', 'expectBalance'].map((kind, index) => `▶ short: step ${index + 1} (line ${[6, 7, 8, 10, 11, 12, 13, 14][index]}) ${kind}\n`).join(''));
    // without --verbose: the one progress line and the count (src/scenario/runScenarioFiles.ts describeOutcome), and the
    // timeline the runner gives with no onStepStart (in-process here: a second CLI run costs a process and its chains)
    expect(verbose.stdout.replace(/ \(\d+\.\d s\)/, '')).toBe('✓ short\n\n1 passed, 0 failed\n');
    const quiet = await runScenario(loadScenarioFile(file), { nodes: pooledNodes() });
    expect(quiet.passed, quiet.timeline).toBe(true);
    expect(readFileSync(join(dir, 'verbose', 'short.timeline'), 'utf8')).toBe(quiet.timeline);
  });

  it('--step-timeout and --step-clock-limit refuse what is not a number of seconds above 0', async () => {
    const failed = await run(process.execPath, ['bin/intentsim.js', 'scenario', 'run', SHORT_BTC, '--step-timeout', '0'], { encoding: 'utf8' }).catch((error: { code: number; stderr: string }) => error);
    expect('code' in failed ? failed.code : 0).toBe(1);
    expect(failed.stderr).toContain("option '--step-timeout <seconds>' argument '0' is invalid. must be a number of seconds above 0");
  });
});
