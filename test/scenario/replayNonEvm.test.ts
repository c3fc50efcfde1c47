// covers: endpoint:GET /requests/v3, endpoint:GET /chains, status:success, status:refund, failReason:SOLVER_BALANCE_TOO_LOW
// chain kinds: evm, svm, bvm, lvm
import { execFileSync } from 'node:child_process';
import type { Connection, Keypair } from '@solana/web3.js';
import * as bitcoin from 'bitcoinjs-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BvmChain } from '../../src/chains/bvm/BvmChain';
import { LvmChain } from '../../src/chains/lvm/LvmChain';
import { ConfigurationError } from '../../src/errors/IntentsimError';
import { spendableCoinsOf } from '../../src/nodes/bvm/bvmSpendableCoins';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/nodes/bvm/bvmTransactions';
import { replayRequest, type ReplayReport } from '../../src/scenario/replay/replayRequest';
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
 */
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
