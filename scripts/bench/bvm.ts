/**
 * BVM ledger throughput: how many real, signed Bitcoin transactions per second the in-process
 * ledger accepts into its mempool (decode, UTXO lookups, BIP143 signature checks, fee and policy
 * checks) and mines into a block (header, merkle root, witness commitment, UTXO updates).
 *
 * Standalone: `npx tsx scripts/bench/bvm.ts` (BENCH_BVM_TRANSACTIONS, default 2000); `npm run
 * bench` runs it too. Reported, never asserted.
 */
import { fileURLToPath } from 'node:url';
import { VirtualClock } from '../../src/clock/VirtualClock';
import { BvmLedger, type BvmCoin } from '../../src/chains/bvm/BvmLedger';
import { deriveBvmAccounts } from '../../src/chains/bvm/bvmAccounts';
import { writeBvmGenesis } from '../../src/chains/bvm/writeBvmGenesis';
import { p2wpkhFee, signP2wpkhTransaction } from '../../src/chains/bvm/bvmTransactions';
import { positiveIntFromEnv } from './measure';

export interface BvmBenchResult {
  transactions: number;
  acceptPerSecond: number;
  minePerSecond: number;
  blockWeight: number;
}

const MNEMONIC = 'test test test test test test test test test test test junk';

export function benchBvm(transactions: number, progress: (line: string) => void = () => undefined): BvmBenchResult {
  const ledger = new BvmLedger({ clock: new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 }) });
  const accounts = deriveBvmAccounts(MNEMONIC, 2);
  writeBvmGenesis(ledger, accounts);
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
  progress(`  ${signed.length} signed p2wpkh transactions`);

  const acceptStart = performance.now();
  for (const hex of signed) ledger.submit(hex);
  const acceptMs = performance.now() - acceptStart;
  const mineStart = performance.now();
  const [block] = ledger.mine(1, solver.script);
  const mineMs = performance.now() - mineStart;
  return {
    transactions: signed.length,
    acceptPerSecond: Math.round((signed.length / acceptMs) * 1000),
    minePerSecond: Math.round((signed.length / mineMs) * 1000),
    blockWeight: block!.weight,
  };
}

export function formatBvmBench(result: BvmBenchResult): string {
  return `BVM ledger: ${result.acceptPerSecond} tx/s accepted into the mempool (signatures checked), ${result.minePerSecond} tx/s mined (${result.transactions} transactions, block weight ${result.blockWeight})`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const result = benchBvm(positiveIntFromEnv('BENCH_BVM_TRANSACTIONS', 2000), (line) => process.stdout.write(`${line}\n`));
  process.stdout.write(`${formatBvmBench(result)}\n`);
}
