import { startDerivationCache } from '../../keys/startDerivationCache';
import { BVM_PARAMS, type BvmCoin, type BvmLedger } from './BvmLedger';
import { signP2wpkhTransaction } from './bvmTransactions';
import type { BvmAccounts } from './bvmAccounts';

/** What each test account holds at genesis: 10 outputs of 1 BTC (a wallet with coins to choose from). */
export const BVM_TEST_ACCOUNT_OUTPUTS = { count: 10, value: BVM_PARAMS.coin };
/** The solver's inventory: 20 outputs of 5 BTC. */
export const BVM_SOLVER_OUTPUTS = { count: 20, value: 5n * BVM_PARAMS.coin };
const FUNDING_FEE = 10_000n;

/**
 * Genesis as a regtest node would get there: the miner mines blocks until its first coinbases
 * have matured (100 confirmations), then spends matured coinbases in signed transactions that
 * pay the test accounts and the solver, and one more block confirms them. Every coin the
 * accounts hold is a real, confirmed output of the ledger. With `time` (unix seconds), every
 * genesis block and transaction has that time, so the same mnemonic, account count and time
 * always give the same genesis, hashes included (what a restart from the ledger's journal needs);
 * without it, times follow the virtual clock.
 */
export function writeBvmGenesis(ledger: BvmLedger, accounts: BvmAccounts, time?: number): void {
  // the same genesis signs the same hashes at every start: signatures of an earlier start are reused
  const signatures = startDerivationCache();
  const mineOne = () => {
    if (time !== undefined) ledger.setNextBlockTimestamp(time);
    ledger.mine(1, accounts.miner.script);
  };
  const payees = [
    ...accounts.testAccounts.map((account) => ({ script: account.script, ...BVM_TEST_ACCOUNT_OUTPUTS })),
    { script: accounts.solver.script, ...BVM_SOLVER_OUTPUTS },
  ];
  // each payee is paid from coinbases of its own; the subsidy may have halved once (regtest: every 150 blocks)
  const smallestSubsidy = 25n * BVM_PARAMS.coin;
  const coinbasesNeeded = payees.reduce((sum, payee) => sum + Number((BigInt(payee.count) * payee.value + FUNDING_FEE + smallestSubsidy - 1n) / smallestSubsidy), 0);
  for (let mined = 0; mined < coinbasesNeeded + BVM_PARAMS.coinbaseMaturity; mined++) mineOne();
  const spendable = ledger.coinsOf(accounts.miner.script, false).filter((coin) => coin.height !== null && ledger.height + 1 - coin.height >= BVM_PARAMS.coinbaseMaturity);
  let next = 0;
  for (const payee of payees) {
    const total = BigInt(payee.count) * payee.value + FUNDING_FEE;
    const inputs: BvmCoin[] = [];
    let gathered = 0n;
    while (gathered < total) {
      const coin = spendable[next++];
      if (!coin) throw new Error('BVM genesis: the miner has too few matured coins');
      inputs.push(coin);
      gathered += coin.value;
    }
    const outputs = Array.from({ length: payee.count }, () => ({ script: payee.script, value: payee.value }));
    if (gathered > total) outputs.push({ script: accounts.miner.script, value: gathered - total });
    const tx = signP2wpkhTransaction(inputs.map((coin) => ({ coin, key: accounts.miner })), outputs, signatures);
    // signed just above by the miner's key: the ledger's own genesis is not verified again (as
    // assumevalid skips known blocks), which spares ~0.2 s of pure-JavaScript secp256k1 at every start
    ledger.withSignaturesTrusted(() => ledger.submit(tx.toHex(), time));
  }
  mineOne();
  signatures.save();
}
