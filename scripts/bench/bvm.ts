/**
 * BVM ledger throughput: how many real, signed Bitcoin transactions per second the in-process
 * ledger accepts into its mempool (decode, UTXO lookups, BIP143 signature checks, fee and policy
 * checks) and mines into a block (header, merkle root, witness commitment, UTXO updates); and the
 * time a restart with `--db` takes to rebuild the ledger from its journal (genesis, then every
 * journaled admission and block applied again) after `BENCH_BVM_RESTART_TRANSACTIONS` transactions.
 *
 * Standalone: `npx tsx scripts/bench/bvm.ts` (BENCH_BVM_TRANSACTIONS, default 2000;
 * BENCH_BVM_RESTART_TRANSACTIONS, default 1000); `npm run bench` runs it too. Reported, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VirtualClock } from '../../src/clock/VirtualClock';
import { BvmLedger, type BvmCoin } from '../../src/nodes/bvm/BvmLedger';
import { BvmLedgerJournal } from '../../src/nodes/bvm/BvmLedgerJournal';
import { deriveBvmAccounts, type BvmAccounts } from '../../src/nodes/bvm/bvmAccounts';
import { writeBvmGenesis } from '../../src/nodes/bvm/writeBvmGenesis';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/nodes/bvm/bvmTransactions';
import { LedgerJournalStore } from '../../src/store/LedgerJournalStore';
import { openDatabase } from '../../src/store/openDatabase';
import { positiveIntFromEnv } from './measure';

export interface BvmBenchResult {
  transactions: number;
  acceptPerSecond: number;
  minePerSecond: number;
  blockWeight: number;
  restart: BvmRestartBenchResult;
}

export interface BvmRestartBenchResult {
  /** Transactions journaled (besides genesis and the fan-out). */
  transactions: number;
  journalEntries: number;
  /** Genesis alone (what a start without a journal costs). */
  genesisMs: number;
  /** Genesis plus the journal applied again: a restart's ledger time. */
  restartMs: number;
}

const MNEMONIC = 'test test test test test test test test test test test junk';
const START_MS = 1_800_000_000_000;

export function benchBvm(transactions: number, progress: (line: string) => void = () => undefined, restartTransactions = 1000): BvmBenchResult {
  const ledger = new BvmLedger({ clock: new VirtualClock({ mode: 'manual', startMs: START_MS }) });
  const accounts = deriveBvmAccounts(MNEMONIC, 2);
  writeBvmGenesis(ledger, accounts, START_MS / 1000);
  const { signed, alice } = signedWorkload(ledger, accounts, transactions);
  progress(`  ${signed.length} signed p2wpkh transactions`);

  const acceptStart = performance.now();
  for (const hex of signed) ledger.submit(hex);
  const acceptMs = performance.now() - acceptStart;
  const mineStart = performance.now();
  const [block] = ledger.mine(1, alice.script);
  const mineMs = performance.now() - mineStart;
  progress(`  restart from a journal of ${restartTransactions} transactions`);
  return {
    transactions: signed.length,
    acceptPerSecond: Math.round((signed.length / acceptMs) * 1000),
    minePerSecond: Math.round((signed.length / mineMs) * 1000),
    blockWeight: block!.weight,
    restart: benchBvmRestart(restartTransactions),
  };
}

/**
 * A journaled ledger (SQLite file, as with `--db`) takes `transactions` signed transactions in
 * blocks of 100; then a new ledger is rebuilt from that journal, as the chain does at start.
 */
export function benchBvmRestart(transactions: number): BvmRestartBenchResult {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-bench-bvm-'));
  const db = openDatabase(join(dir, 'bench.db'));
  try {
    const store = new LedgerJournalStore(db);
    const accounts = deriveBvmAccounts(MNEMONIC, 2);
    const clock = new VirtualClock({ mode: 'manual', startMs: START_MS });
    const ledger = new BvmLedger({ clock });
    new BvmLedgerJournal({ chainId: 1, store, ledger }).open((time) => writeBvmGenesis(ledger, accounts, time), clock.nowSeconds());
    const { signed, alice } = signedWorkload(ledger, accounts, transactions);
    signed.forEach((hex, index) => {
      ledger.submit(hex);
      if (index % 100 === 99 || index === signed.length - 1) {
        clock.advance(600_000);
        ledger.mine(1, alice.script);
      }
    });
    const tip = ledger.tip!.hash;

    const genesisStart = performance.now();
    writeBvmGenesis(new BvmLedger({ clock }), accounts, START_MS / 1000);
    const genesisMs = performance.now() - genesisStart;
    const restartStart = performance.now();
    const rebuilt = new BvmLedger({ clock });
    new BvmLedgerJournal({ chainId: 1, store, ledger: rebuilt }).open((time) => writeBvmGenesis(rebuilt, accounts, time), clock.nowSeconds());
    const restartMs = performance.now() - restartStart;
    if (rebuilt.tip!.hash !== tip) throw new Error(`the rebuilt ledger's tip is ${rebuilt.tip!.hash}, not ${tip}`);
    return { transactions: signed.length, journalEntries: store.entries(1).length, genesisMs: Math.round(genesisMs), restartMs: Math.round(restartMs) };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `transactions` signed one-input transfers from alice to bob, each spending a confirmed coin of its own. */
function signedWorkload(ledger: BvmLedger, accounts: BvmAccounts, transactions: number): { signed: string[]; alice: BvmAccounts['solver'] } {
  const [alice, bob] = accounts.testAccounts as [typeof accounts.solver, typeof accounts.solver];
  const solver = accounts.solver;

  // fan the solver's coins out into `transactions` small coins, confirmed, one per transaction to measure
  const perFanOut = Math.ceil(transactions / 20);
  const value = 100_000n;
  for (const coin of ledger.coinsOf(solver.script, false)) {
    const outputs = Array.from({ length: perFanOut }, () => ({ script: alice.script, value }));
    const change = coin.value - value * BigInt(perFanOut) - p2wpkhFee(1, perFanOut + 1) * 2n;
    ledger.submit(signP2wpkhTransaction([{ coin, key: solver }], [...outputs, { script: solver.script, value: change }]).toHex());
  }
  ledger.mine(1, solver.script);
  const coins: BvmCoin[] = ledger.coinsOf(alice.script, false).filter((coin) => coin.value === value).slice(0, transactions);
  const signed = coins.map((coin) => signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value: value - p2wpkhFee(1, 1) }]).toHex());
  return { signed, alice };
}

export function formatBvmBench(result: BvmBenchResult): string {
  const { restart } = result;
  return [
    `BVM ledger: ${result.acceptPerSecond} tx/s accepted into the mempool (signatures checked), ${result.minePerSecond} tx/s mined (${result.transactions} transactions, block weight ${result.blockWeight})`,
    `BVM restart with --db: ${restart.restartMs} ms to rebuild the ledger from a journal of ${restart.transactions} transactions (${restart.journalEntries} entries; genesis alone ${restart.genesisMs} ms)`,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = benchBvm(positiveIntFromEnv('BENCH_BVM_TRANSACTIONS', 2000), (line) => process.stdout.write(`${line}\n`), positiveIntFromEnv('BENCH_BVM_RESTART_TRANSACTIONS', 1000));
  process.stdout.write(`${formatBvmBench(result)}\n`);
}
