import { BVM_PARAMS, type BvmCoin, type BvmLedger } from './BvmLedger';

/**
 * Confirmations a coinbase output needs before a wallet spends it: Bitcoin Core's wallet counts
 * one more than consensus (`COINBASE_MATURITY + 1`, `CWalletTx::GetBlocksToMaturity`), so after
 * `generatetoaddress 101 <addr>` exactly one coinbase (50 BTC) is spendable, as Core shows.
 */
export const WALLET_COINBASE_MATURITY = BVM_PARAMS.coinbaseMaturity + 1;

/** Confirmations of a coin now (0 while its transaction waits in the mempool). */
export function coinConfirmations(ledger: BvmLedger, coin: BvmCoin): number {
  return coin.height === null ? 0 : ledger.height - coin.height + 1;
}

/** Whether a coin is a coinbase output that has not matured yet for a wallet. */
export function isImmatureCoinbase(ledger: BvmLedger, coin: BvmCoin): boolean {
  return coin.coinbase && coinConfirmations(ledger, coin) < WALLET_COINBASE_MATURITY;
}

/**
 * The coins a wallet may spend from `scripts`: unspent (outputs a mempool transaction spends are
 * gone, unconfirmed outputs count), mature (no coinbase below `WALLET_COINBASE_MATURITY`
 * confirmations) and not locked (`lockunspent`). Every coin selection uses this: the node's
 * wallets, the quote's PSBT step and the solver.
 */
export function spendableCoinsOf(ledger: BvmLedger, ...scripts: Uint8Array[]): BvmCoin[] {
  return scripts.flatMap((script) => ledger.coinsOf(script, true)).filter((coin) => !isImmatureCoinbase(ledger, coin) && !ledger.isLocked(coin.txid, coin.vout));
}
