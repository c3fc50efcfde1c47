// covers: status:success, status:refund, failReason:SOLVER_BALANCE_TOO_LOW
// chain kinds: evm, svm, bvm, lvm
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/errors/IntentsimError';
import { forkedScenarioFromRecord } from '../../src/scenario/forkedScenarioFromRecord';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { runScenario } from '../../src/scenario/runScenario';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { SvmChain } from '../../src/chains/svm/SvmChain';
import { BVM_CHAIN_ID as BVM } from '../support/bvmClient';
import { chainAdapterOf } from '../support/chainAdapterOf';
import { pooledChains } from '../support/pooledNodes';
import { nonEvmUpstream, type UpstreamOutcome } from '../support/nonEvmUpstream';
import { SVM_CHAIN_ID as SVM } from '../support/svmClient';

const EVM = 1;
const LVM = 3586256;

type WrittenFile = { fork: Record<string, { url: string; block?: number }>; steps: Array<Record<string, Record<string, unknown>>>; description: string };

/**
 * `scenario from-record --fork` of records whose chains are Solana, Bitcoin or Lighter
 * (docs/forking.md "A replay as a scenario file"): the upstream is a second simulator (chain 1,
 * Solana, Bitcoin, Lighter) where a bridge from each of the three to chain 1, each paid from an
 * account only the upstream holds, and one from chain 1 to Bitcoin ended `success`, and one from
 * chain 1 to Solana ended `refund`
 * SOLVER_BALANCE_TOO_LOW (its Solana solver drained before the deposit). Each record is written by
 * what the CLI runs (`forkedScenarioFromRecord`, in-process: the CLI itself, its `-o` file and its
 * one line with exit 2, is test/scenario/scenarioFromRecordFork.test.ts's) and the file runs to the
 * record's status through the same forkings `replay` uses.
 */
describe('scenario from-record --fork: records from and to Solana, Bitcoin and Lighter become files that replay them', () => {
  let upstream: RunningSimulator;
  let esploraUrl: string;
  const requests: Record<'svmToEvm' | 'bvmToEvm' | 'lvmToEvm' | 'evmToBvm' | 'evmToSvmDrained', UpstreamOutcome> = {} as never;
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-from-record-fork-kinds-'));

  /** The upstream's record of `id` (its GET /requests/v3 answer). */
  const answerOf = async (id: string): Promise<unknown> => (await fetch(`${upstream.baseUrl}/requests/v3?id=${id}`, { headers: { 'x-api-key': upstream.apiKey } })).json();

  /**
   * `scenario from-record <record of id> --from <upstream> --fork [forks]` as the CLI runs it: the file
   * written, its path and the record.
   */
  const fromRecord = async (id: string, forks: Record<number, string> = {}) => {
    const answer = await answerOf(id);
    const scenarioFile = join(dir, `${id}.yaml`);
    writeFileSync(scenarioFile, await forkedScenarioFromRecord({ input: answer, forks, from: upstream.baseUrl }));
    return { scenarioFile, record: (answer as { requests: Array<{ user: string; data: { inTxs: Array<{ txHash: string }> } }> }).requests[0]! };
  };

  /** Runs the written file: no step error, no mismatch; the record it ended with. */
  const runFile = async (file: string) => {
    const result = await runScenario(loadScenarioFile(file));
    expect(result.error, result.timeline).toBeUndefined();
    expect(result.mismatches, result.timeline).toEqual([]);
    return result;
  };

  beforeAll(async () => {
    // chain 1 is this worker's pooled Anvil (reset to genesis), the others the upstream's own ledgers
    upstream = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: SVM }, { id: BVM }, { id: LVM }] });
    const helpers = nonEvmUpstream(upstream);
    const recipient = upstream.accounts[4]!.address;
    requests.svmToEvm = await helpers.bridgeFromSolana(recipient);
    const fromBitcoin = await helpers.bridgeFromBitcoin(recipient);
    esploraUrl = fromBitcoin.esploraUrl;
    requests.bvmToEvm = fromBitcoin;
    requests.lvmToEvm = await helpers.bridgeFromLighter(recipient);
    requests.evmToBvm = await helpers.bridgeToBitcoin(1);
    requests.evmToSvmDrained = await helpers.bridgeToDrainedSolana(2);
    expect(requests.svmToEvm.status).toBe('success');
    expect(requests.bvmToEvm.status).toBe('success');
    expect(requests.lvmToEvm.status).toBe('success');
    expect(requests.evmToBvm.status).toBe('success');
    expect(requests.evmToSvmDrained).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
  }, 240_000);

  afterAll(async () => {
    await upstream?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('Solana → chain 1: Solana forked with no block (read as it is now), chain 1 pinned; the file runs to success', async () => {
    const { scenarioFile, record } = await fromRecord(requests.svmToEvm.id);
    const file = parse(readFileSync(scenarioFile, 'utf8')) as WrittenFile;
    expect(file.fork[String(SVM)]).toEqual({ url: upstream.chains.find((chain) => chain.id === SVM)!.rpcUrl });
    expect(file.fork[String(EVM)]!.block).toEqual(expect.any(Number));
    expect(file.steps.map((step) => Object.keys(step)[0])).toEqual(['quote', 'solverAsUpstream', 'deposit', 'expect']);
    expect(file.steps[0]!.quote!.user).toBe(record.user);

    const result = await runFile(scenarioFile);
    expect(result.records.replay).toMatchObject({ status: 'success' });
    expect(result.timeline).toContain('(impersonated)');
  }, 180_000);

  it("Bitcoin → chain 1: without the Esplora replay's one line (exit 2); with it, the deposit's outputs given back before the quote, and the file runs to success", async () => {
    // the CLI prints a ConfigurationError's message as its one line and exits 2 (src/cli.ts)
    const refused = await forkedScenarioFromRecord({ input: await answerOf(requests.bvmToEvm.id), forks: {}, from: upstream.baseUrl }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(refused).toBeInstanceOf(ConfigurationError);
    expect((refused as Error).message.split('\n')).toHaveLength(1);
    expect((refused as Error).message).toMatch(new RegExp(`^chain ${BVM}: the fork's upstream Esplora .* could not be read \\(GET /blocks/tip/height\\).*give it with --fork ${BVM}=ESPLORA_URL$`));

    const { scenarioFile, record } = await fromRecord(requests.bvmToEvm.id, { [BVM]: esploraUrl });
    const file = parse(readFileSync(scenarioFile, 'utf8')) as WrittenFile;
    expect(file.fork[String(BVM)]).toEqual({ url: esploraUrl });
    expect(file.steps.map((step) => Object.keys(step)[0])).toEqual(['automine', 'restoreDepositFunds', 'quote', 'solverAsUpstream', 'deposit', 'mine', 'mine', 'expect']);
    expect(file.steps[1]!.restoreDepositFunds).toEqual({ chainId: BVM, user: record.user, depositTxHash: record.data.inTxs[0]!.txHash });
    expect(file.description).toContain(`Chain ${BVM} mines on this file's mine steps`);

    const result = await runFile(scenarioFile);
    expect(result.records.replay).toMatchObject({ status: 'success' });
    expect(result.timeline).toContain("output(s) the record's deposit spent");
  }, 180_000);

  it('Lighter → chain 1: the account index quoted and deposited as a string, the transfer made as the account; the file runs to success', async () => {
    const { scenarioFile, record } = await fromRecord(requests.lvmToEvm.id);
    const text = readFileSync(scenarioFile, 'utf8');
    const file = parse(text) as WrittenFile;
    expect(file.fork[String(LVM)]!.block).toBeUndefined();
    expect(file.steps[0]!.quote!.user).toBe(record.user);
    expect(text).toContain(`user: "${record.user}"`);

    const result = await runFile(scenarioFile);
    expect(result.records.replay).toMatchObject({ status: 'success' });
  }, 180_000);

  it("chain 1 → Bitcoin: the solver's coins cut to the upstream solver's, its payment confirmed by the file's own mine step; the file runs to success", async () => {
    const { scenarioFile } = await fromRecord(requests.evmToBvm.id, { [BVM]: esploraUrl });
    const file = parse(readFileSync(scenarioFile, 'utf8')) as WrittenFile;
    expect(file.steps.map((step) => Object.keys(step)[0])).toEqual(['automine', 'quote', 'solverAsUpstream', 'deposit', 'mine', 'expect']);

    const result = await runFile(scenarioFile);
    expect(result.records.replay).toMatchObject({ status: 'success', data: { outTxs: [{ chainId: BVM, status: 'success' }] } });
  }, 180_000);

  it('chain 1 → Solana with the upstream solver drained: solverAsUpstream on the unpinned Solana fork, and the file runs to refund SOLVER_BALANCE_TOO_LOW', async () => {
    const { scenarioFile } = await fromRecord(requests.evmToSvmDrained.id);
    const file = parse(readFileSync(scenarioFile, 'utf8')) as WrittenFile;
    expect(file.fork[String(SVM)]!.block).toBeUndefined();
    expect(file.steps.map((step) => Object.keys(step)[0])).toEqual(['quote', 'solverAsUpstream', 'deposit', 'expect']);
    expect(file.steps[1]!.solverAsUpstream).toEqual({ chainId: SVM, upstreamSolver: chainAdapterOf(upstream, SVM, SvmChain).describe().solverAddress, currency: 'native' });

    const result = await runFile(scenarioFile);
    expect(result.records.replay).toMatchObject({ status: 'refund', data: { failReason: 'SOLVER_BALANCE_TOO_LOW' } });
  }, 180_000);
});
