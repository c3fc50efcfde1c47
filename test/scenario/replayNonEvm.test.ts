// covers: endpoint:GET /requests/v3, endpoint:GET /chains, status:success, status:refund, failReason:SOLVER_BALANCE_TOO_LOW
// chain kinds: evm, svm, bvm, lvm
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Connection, Keypair } from '@solana/web3.js';
import * as bitcoin from 'bitcoinjs-lib';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BvmChain } from '../../src/chains/bvm/BvmChain';
import { LvmChain } from '../../src/chains/lvm/LvmChain';
import { SvmChain } from '../../src/chains/svm/SvmChain';
import { ConfigurationError } from '../../src/errors/IntentsimError';
import { spendableCoinsOf } from '../../src/nodes/bvm/bvmSpendableCoins';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/nodes/bvm/bvmTransactions';
import { forkedScenarioFromRecord } from '../../src/scenario/forkedScenarioFromRecord';
import { loadScenarioFile } from '../../src/scenario/loadScenarioFile';
import { replayRequest, type ReplayReport } from '../../src/scenario/replay/replayRequest';
import { runScenario } from '../../src/scenario/runScenario';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { usdcOf } from '../support/bridgeClient';
import { BTC_ADDRESS as BTC, BVM_CHAIN_ID as BVM, bvmRpc } from '../support/bvmClient';
import { chainAdapterOf } from '../support/chainAdapterOf';
import { closedPortUrl } from '../support/closedPortUrl';
import { pooledChains } from '../support/pooledNodes';
import { bitcoinHolderPayment as holderPayment, nonEvmUpstream, type UpstreamOutcome as Outcome } from '../support/nonEvmUpstream';
import { SVM_CHAIN_ID as SVM } from '../support/svmClient';

/**
 * `intentsim replay` of requests whose origin or destination is not an EVM chain
 * (docs/forking.md "Replay per chain kind"): the upstream is a second simulator with chain 1,
 * Solana, Bitcoin and Lighter. A bridge from each of the three kinds to chain 1, paid from an
 * account only the upstream holds, ends `success`, and so does one from chain 1 to Bitcoin; a
 * bridge from chain 1 to Solana and one to Lighter end `refund` SOLVER_BALANCE_TOO_LOW, the
 * upstream's solver drained there before the deposit. Each replays the same, the non-EVM chain
 * read as it is now (not pinned), the deposit made again as the record's user.
 *
 * First, on the same upstream (its setup is most of this file's cost), `scenario from-record --fork`
 * (docs/forking.md "A replay as a scenario file"): the records of the three bridges to chain 1, of
 * chain 1 → Bitcoin and of the drained chain 1 → Solana become files (what the CLI runs,
 * `forkedScenarioFromRecord`, in-process: the CLI itself, its `-o` file and its one line with exit 2,
 * is test/scenario/scenarioFromRecordFork.test.ts's) that run to the record's status through the
 * same forkings `replay` uses. They run before the Bitcoin solver is drained upstream below.
 */
type WrittenFile = { fork: Record<string, { url: string; block?: number }>; steps: Array<Record<string, Record<string, unknown>>>; description: string };

const EVM = 1;
const LVM = 3586256;
const network = bitcoin.networks.regtest;

describe('intentsim replay: requests from and to Solana, Bitcoin and Lighter chains', () => {
  let upstream: RunningSimulator;
  let upstreamSolana: Connection;
  let solanaUser: Keypair;
  let esploraUrl: string;
  let helpers: ReturnType<typeof nonEvmUpstream>;
  const requests: Record<'svmToEvm' | 'bvmToEvm' | 'lvmToEvm' | 'evmToBvm' | 'evmToSvmDrained' | 'evmToLvmDrained', Outcome> = {} as never;

  const rpcUrlOf = (chainId: number) => upstream.chains.find((chain) => chain.id === chainId)!.rpcUrl;
  const bridgeFromEvm: ReturnType<typeof nonEvmUpstream>['bridgeFromEvm'] = (...args) => helpers.bridgeFromEvm(...args);

  /** Anvil processes forking one of the upstream's chains (a replay's, which must all be gone). */
  const replayAnvils = (): string[] => {
    try {
      return execFileSync('pgrep', ['-a', '-f', 'anvil .*--fork-url'], { encoding: 'utf8' })
        .trim()
        .split('\n')
        .filter((line) => line.includes(rpcUrlOf(EVM)));
    } catch {
      return []; // pgrep exits 1 when nothing matches
    }
  };

  /**
   * A replay refused as bad input: the error \`intentsim replay\` prints as its one line and exits 2
   * on (src/cli.ts: a ConfigurationError; the CLI's side of that is test/scenario/replayRequest.test.ts).
   */
  const refusal = async (id: string, forks?: Record<number, string>): Promise<Error> => {
    const error = await replay(id, forks).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message.split('\n')).toHaveLength(1);
    return error as Error;
  };

  const replay = (id: string, forks?: Record<number, string>): Promise<ReplayReport> => replayRequest({ requestId: id, from: upstream.baseUrl, apiKey: upstream.apiKey, ...(forks ? { forks } : {}) });

  beforeAll(async () => {
    // chain 1 is this worker's pooled Anvil (reset to genesis), the others the upstream's own ledgers
    upstream = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: SVM }, { id: BVM }, { id: LVM }] });
    const recipient = upstream.accounts[4]!.address;

    helpers = nonEvmUpstream(upstream);

    // Solana → chain 1, from a keypair only the upstream funds
    const fromSolana = await helpers.bridgeFromSolana(recipient);
    ({ connection: upstreamSolana, user: solanaUser } = fromSolana);
    requests.svmToEvm = { id: fromSolana.id, status: fromSolana.status };

    // Bitcoin → chain 1, from an output a test account paid to a key only this test holds
    const fromBitcoin = await helpers.bridgeFromBitcoin(recipient);
    esploraUrl = fromBitcoin.esploraUrl;
    requests.bvmToEvm = { id: fromBitcoin.id, status: fromBitcoin.status };

    // Lighter → chain 1, from a sub-account made and paid only upstream, through the exchange's API with its own key
    requests.lvmToEvm = await helpers.bridgeFromLighter(recipient);

    // chain 1 → Bitcoin: the upstream's solver pays the holder from its coins
    requests.evmToBvm = await helpers.bridgeToBitcoin(1);

    // chain 1 → Solana: the upstream's Solana solver drained before the deposit (and left so)
    requests.evmToSvmDrained = await helpers.bridgeToDrainedSolana(2);

    // chain 1 → Lighter: the upstream's exchange solver drained before the deposit (and left so)
    const exchange = chainAdapterOf(upstream, LVM, LvmChain);
    const owner = upstream.chains.find((chain) => chain.id === LVM)!.accounts![0]!;
    requests.evmToLvmDrained = await bridgeFromEvm(3, { recipient: owner.address, destinationChainId: LVM, destinationCurrency: '0', originCurrency: await usdcOf(upstream.baseUrl, EVM), amount: '5000000' }, async () => {
      exchange.ledger.controlAccount(Number(exchange.describe().solverAddress), { collateral: 0n });
    });
  }, 240_000);

  afterAll(async () => {
    await upstream?.stop();
  });

  describe('scenario from-record --fork: the same records become files that replay them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intentsim-from-record-fork-kinds-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

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

  it('the upstream ended each request as the test meant', () => {
    expect(requests.svmToEvm.status).toBe('success');
    expect(requests.bvmToEvm.status).toBe('success');
    expect(requests.lvmToEvm.status).toBe('success');
    expect(requests.evmToBvm.status).toBe('success');
    expect(requests.evmToSvmDrained).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(requests.evmToLvmDrained).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
  });

  it('Solana → chain 1 replays to success: same, Solana read as it is now, chain 1 pinned; the upstream keypair unchanged', async () => {
    const lamports = await upstreamSolana.getBalance(solanaUser.publicKey);
    const report = await replay(requests.svmToEvm.id);
    expect(report.replayed, JSON.stringify(report)).toMatchObject({ status: 'success', failReason: null });
    expect(report.same).toBe(true);
    expect(report.forks[String(SVM)]).toMatchObject({ block: null, pinned: false });
    expect(report.forks[String(EVM)]!.pinned).toBe(true);
    expect(await upstreamSolana.getBalance(solanaUser.publicKey)).toBe(lamports);
    expect(replayAnvils()).toEqual([]);
  }, 150_000);

  it("Bitcoin → chain 1 replays to success from the outputs the record's deposit spent (forked from the Esplora --fork names)", async () => {
    const report = await replay(requests.bvmToEvm.id, { [BVM]: esploraUrl });
    expect(report.replayed, JSON.stringify(report)).toMatchObject({ status: 'success', failReason: null });
    expect(report.same).toBe(true);
    expect(report.forks[String(BVM)]).toMatchObject({ block: null, pinned: false });
    expect(report.notes.some((note) => note.includes("output(s) the record's deposit spent"))).toBe(true);
    expect(replayAnvils()).toEqual([]);
  }, 150_000);

  it("Bitcoin without --fork: GET /chains names Bitcoin Core's JSON-RPC, not an Esplora: one line naming the chain, exit 2", async () => {
    const error = await refusal(requests.bvmToEvm.id);
    expect(error.message).toMatch(new RegExp(`^chain ${BVM}: the fork's upstream Esplora .* could not be read \\(GET /blocks/tip/height\\).*give it with --fork ${BVM}=ESPLORA_URL$`));
    expect(replayAnvils()).toEqual([]);
  }, 60_000);

  it('a Solana fork upstream nobody answers at: one line naming the chain, exit 2', async () => {
    const dead = await closedPortUrl();
    const error = await refusal(requests.svmToEvm.id, { [SVM]: dead });
    expect(error.message).toMatch(new RegExp(`^chain ${SVM}: the fork upstream ${dead.replaceAll('.', '\\.')} did not answer getSlot \\(`));
    expect(replayAnvils()).toEqual([]);
  }, 60_000);

  it('Lighter → chain 1 replays to success: the transfer made again as the sub-account only the upstream has', async () => {
    const report = await replay(requests.lvmToEvm.id);
    expect(report.replayed, JSON.stringify(report)).toMatchObject({ status: 'success', failReason: null });
    expect(report.same).toBe(true);
    expect(report.forks[String(LVM)]).toMatchObject({ block: null, pinned: false });
    expect(replayAnvils()).toEqual([]);
  }, 150_000);

  it("chain 1 → Bitcoin replays to success: the solver's coins cut to the upstream solver's now, its payment mined by the replay's Bitcoin chain on its own", async () => {
    const report = await replay(requests.evmToBvm.id, { [BVM]: esploraUrl });
    expect(report.replayed, JSON.stringify(report)).toMatchObject({ status: 'success', failReason: null });
    expect(report.replayed.transactions.map(({ type, chainId, status }) => ({ type, chainId, status }))).toEqual(report.original.transactions.map(({ type, chainId, status }) => ({ type, chainId, status })));
    expect(report.same).toBe(true);
    expect(report.notes.some((note) => note.startsWith(`chain ${BVM}: the solver's coins made the upstream solver's now`))).toBe(true);
    expect(replayAnvils()).toEqual([]);
  }, 150_000);

  it('chain 1 → Bitcoin with the Bitcoin solver drained upstream (from here on: after the success above) replays to the same refund SOLVER_BALANCE_TOO_LOW', async () => {
    const bitcoinChain = chainAdapterOf(upstream, BVM, BvmChain);
    const solver = bitcoinChain.keys.solver;
    const drain = async () => {
      const coins = spendableCoinsOf(bitcoinChain.ledger, solver.script);
      const held = coins.reduce((sum, coin) => sum + coin.value, 0n);
      const burn = bitcoin.payments.p2wpkh({ hash: Buffer.alloc(20, 7), network }).output!;
      const drained = signP2wpkhTransaction(coins.map((coin) => ({ coin, key: solver })), [{ script: solver.script, value: 1_000n }, { script: burn, value: held - 1_000n - p2wpkhFee(coins.length, 2) }]);
      await bvmRpc(rpcUrlOf(BVM), 'sendrawtransaction', [drained.toHex()]);
      await bvmRpc(rpcUrlOf(BVM), 'generatetoaddress', [1, bitcoinChain.keys.testAccounts[0]!.address]);
    };
    const upstreamOutcome = await bridgeFromEvm(6, { recipient: holderPayment.address, destinationChainId: BVM, destinationCurrency: BTC }, drain, helpers.settledMiningBitcoin);
    expect(upstreamOutcome).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });

    const report = await replay(upstreamOutcome.id, { [BVM]: esploraUrl });
    expect(report.replayed, JSON.stringify(report)).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(report.same).toBe(true);
    expect(report.notes.some((note) => new RegExp(`^chain ${BVM}: the solver's coins made the upstream solver's now \\(1000 sats of \\d+; the fork is not pinned\\)$`).test(note)), report.notes.join('\n')).toBe(true);
    expect(replayAnvils()).toEqual([]);
  }, 240_000);

  it('chain 1 → Solana with the Solana solver drained upstream replays to the same refund SOLVER_BALANCE_TOO_LOW', async () => {
    const report = await replay(requests.evmToSvmDrained.id);
    expect(report.original).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(report.replayed).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(report.same).toBe(true);
    expect(report.forks[String(SVM)]).toMatchObject({ block: null, pinned: false });
    expect(replayAnvils()).toEqual([]);
  }, 180_000);

  it('chain 1 → Lighter with the exchange solver drained upstream replays to the same refund SOLVER_BALANCE_TOO_LOW', async () => {
    const report = await replay(requests.evmToLvmDrained.id);
    expect(report.original).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(report.replayed, JSON.stringify(report)).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(report.same).toBe(true);
    expect(replayAnvils()).toEqual([]);
  }, 180_000);
});
