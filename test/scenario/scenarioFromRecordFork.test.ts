// covers: status:refund, failReason:SOLVER_BALANCE_TOO_LOW
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/IntentsimError';
import { forkedScenarioFromRecord } from '../../src/scenario/forkedScenarioFromRecord';
import { loadScenarioFile, ScenarioFileError } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { anvilsForking } from '../support/anvilsForking';
import { closedPortUrl } from '../support/closedPortUrl';
import { refundedByDrainedSolver } from '../support/drainedSolverUpstream';
import { pooledChains } from '../support/pooledNodes';

/** Runs `intentsim <args>` to its end: its exit code, stdout and stderr. */
const cli = (args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(process.execPath, ['bin/intentsim.js', ...args], { encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });

/**
 * `scenario from-record --fork` (docs/forking.md "A replay as a scenario file"): the upstream is a
 * second simulator started here (on this worker's pooled chains 1 and 8453) whose solver was drained on 8453 before a
 * deposit, so that request ended `refund` SOLVER_BALANCE_TOO_LOW. Its record becomes a file with
 * a `fork:` section; running the file forks both chains there and ends the same way, with no
 * scripted drain: the forked state is the cause.
 */
describe('scenario from-record --fork: a record becomes a scenario file that replays it on forks of its chains', () => {
  let upstream: RunningSimulator;
  let refunded: string;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-from-record-fork-'));
  const blockNumbers = () => Promise.all(upstream.chains.map((chain) => createPublicClient({ transport: http(chain.rpcUrl) }).getBlockNumber({ cacheTime: 0 })));
  const forkingAnvils = (): string[] => anvilsForking(upstream.chains.map((chain) => chain.rpcUrl));

  beforeAll(async () => {
    upstream = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: pooledChains([1, 8453]) });
    refunded = await refundedByDrainedSolver(upstream, 2);
  }, 180_000);

  afterAll(async () => {
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the written file forks both chains where the request happened, and running it ends refund SOLVER_BALANCE_TOO_LOW as upstream', async () => {
    const answer = (await (await fetch(`${upstream.baseUrl}/requests/v3?id=${refunded}`, { headers: { 'x-api-key': upstream.apiKey } })).json()) as { requests: Array<{ user: string; data: { inTxs: Array<{ block: number }> } }> };
    const recordFile = join(dir, 'record.json');
    writeFileSync(recordFile, JSON.stringify(answer));
    const scenarioFile = join(dir, 'replay.yaml');
    const written = await cli(['scenario', 'from-record', recordFile, '-o', scenarioFile, '--from', upstream.baseUrl, '--fork']);
    expect(written.code, written.stderr).toBe(0);

    const file = parse(readFileSync(scenarioFile, 'utf8')) as { fork: Record<string, { url: string; block: number }>; steps: Array<Record<string, Record<string, unknown>>> };
    const rpcOf = (id: number) => upstream.chains.find((chain) => chain.id === id)!.rpcUrl;
    expect(file.fork['1']).toEqual({ url: rpcOf(1), block: answer.requests[0]!.data.inTxs[0]!.block - 1 });
    expect(file.fork['8453']!.url).toBe(rpcOf(8453));
    expect(file.steps.map((step) => Object.keys(step)[0])).toEqual(['quote', 'solverAsUpstream', 'deposit', 'expect']);
    expect(file.steps[0]!.quote!.user).toBe(answer.requests[0]!.user);
    expect(file.steps[1]!.solverAsUpstream).toEqual({ chainId: 8453, upstreamSolver: upstream.control.solverAddress, currency: 'native' });
    expect(file.steps[2]!.deposit).toEqual({ request: 'replay', impersonate: true });

    // the file round-trips through the schema: what was written is what is loaded
    const scenario = loadScenarioFile(scenarioFile);
    expect(scenario.fork).toEqual(file.fork);
    expect(scenario.chains).toEqual([1, 8453]);

    const before = await blockNumbers();
    const result = await runScenario(scenario);
    expect(result.error, result.timeline).toBeUndefined();
    expect(result.mismatches, result.timeline).toEqual([]);
    expect(result.records.replay).toMatchObject({ status: 'refund', data: { failReason: 'SOLVER_BALANCE_TOO_LOW' } });
    expect(await blockNumbers()).toEqual(before);
    expect(forkingAnvils()).toEqual([]);
  }, 240_000);

  it('a scenario on forked chains restarts: the chains are forked again from the journal, the quote made before is paid and filled after', async () => {
    const file = join(dir, 'forked-restart.yaml');
    const rpcOf = (id: number) => upstream.chains.find((chain) => chain.id === id)!.rpcUrl;
    writeFileSync(
      file,
      [
        'chains: [1, 8453]',
        'fork:',
        `  1: { url: "${rpcOf(1)}" }`,
        `  8453: { url: "${rpcOf(8453)}" }`,
        'steps:',
        '  - quote: { as: bridge, user: 0, originChainId: 1, destinationChainId: 8453, originCurrency: ETH, destinationCurrency: ETH, amount: "10000000000000000", recipient: fresh:alice }',
        '  - restart: true',
        '  - deposit: { request: bridge }',
        '  - expect: { request: bridge, status: success, statuses: [waiting, pending, submitted, success] }',
        '',
      ].join('\n'),
    );
    const before = await blockNumbers();
    const result = await runScenario(loadScenarioFile(file));
    expect(result.error, result.timeline).toBeUndefined();
    expect(result.mismatches, result.timeline).toEqual([]);
    expect(result.timeline).toContain('simulator stopped; started again on the same database');
    expect(await blockNumbers()).toEqual(before);
    expect(forkingAnvils()).toEqual([]);
  }, 120_000);

  it('scenario run of a file whose fork upstream does not answer: one line, exit code 2, nothing left running', async () => {
    const dead = await closedPortUrl();
    const file = join(dir, 'dead-upstream.yaml');
    writeFileSync(file, ['chains: [8453]', 'fork:', `  8453: { url: "${dead}" }`, 'steps:', '  - advanceClock: { seconds: 1 }', ''].join('\n'));
    const run = await cli(['scenario', 'run', file]);
    expect(run.stderr.trimEnd().split('\n'), run.stderr).toHaveLength(1);
    expect(run.stderr.trimEnd()).toBe(`intentsim: ${file}: chain 8453: the fork upstream ${dead} did not answer eth_chainId (ECONNREFUSED)`);
    expect(run.code).toBe(2);
    expect(() => execFileSync('pgrep', ['-f', `--fork-url ${dead}`])).toThrow(); // pgrep exits 1: no Anvil forks it
  }, 60_000);

  it('from-record --fork with no upstream for a chain of the record: one line, exit code 2', async () => {
    // what the command runs, in-process: the CLI prints a ConfigurationError's message as its one
    // line and exits 2 (src/cli.ts; the CLI's own refusal is the test above)
    const input = JSON.parse(readFileSync(join(dir, 'record.json'), 'utf8')) as unknown;
    const refused = await forkedScenarioFromRecord({ input, forks: { 8453: upstream.chains.find((chain) => chain.id === 8453)!.rpcUrl } }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect((refused as Error).message).toBe(`--fork: no upstream for chain 1 of request ${refunded}; give --from <the deployment's URL> (its GET /chains) or --fork 1=URL`);
  }, 60_000);

  it('a fork section is checked when the file loads: its chains, its URLs, solverAsUpstream and restoreDepositFunds only on a forked chain', () => {
    const load = (yaml: string) => () => loadScenarioFile(join(dir, 'checked.yaml'), yaml);
    const steps = 'steps:\n  - advanceClock: { seconds: 1 }\n';
    expect(loadScenarioFile(join(dir, 'ok.yaml'), `chains: [1]\nfork:\n  1: { url: "http://127.0.0.1:8545", block: 7 }\n${steps}`).fork).toEqual({ '1': { url: 'http://127.0.0.1:8545', block: 7 } });
    expect(load(`chains: [1]\nfork:\n  8453: { url: "http://127.0.0.1:8545" }\n${steps}`)).toThrow(/fork\.8453: chain 8453 is not one of the scenario's chains \(1\)/);
    expect(load(`chains: [1]\nfork:\n  1: { url: "ws://127.0.0.1:8545" }\n${steps}`)).toThrow(ScenarioFileError);
    expect(load(`chains: [1]\nsteps:\n  - solverAsUpstream: { chainId: 1, upstreamSolver: "0x00000000000000000000000000000000000000aa" }\n`)).toThrow(/chain 1 is not forked/);
    expect(load(`chains: [1]\nsteps:\n  - restoreDepositFunds: { chainId: 1, user: "0x00000000000000000000000000000000000000aa", depositTxHash: "0x01" }\n`)).toThrow(/chain 1 is not forked/);
  });
});
