import type { LvmAccount, LvmTransaction } from './LvmLedger';
import { LVM_ASSETS, USDC_ASSET } from './lvmAssets';

/**
 * The exchange API's JSON (snake_case, as the exchange answers): amounts are integer strings in
 * the asset's smallest unit (USDC: 6 decimals), hashes bare hex.
 */
export function accountView(account: LvmAccount) {
  return {
    index: account.index,
    account_index: account.index,
    l1_address: account.l1Address,
    account_type: account.kind === 'master' ? 0 : 1,
    master_account_index: account.masterIndex,
    collateral: String(account.collateral),
    collateral_decimals: USDC_ASSET.decimals,
    nonce: account.nonce,
    assets: LVM_ASSETS.map((asset) => ({
      asset_index: asset.index,
      symbol: asset.symbol,
      decimals: asset.decimals,
      perp_balance: String(asset.index === USDC_ASSET.index ? account.collateral : 0n),
      spot_balance: String(account.spot.get(asset.index) ?? 0n),
    })),
  };
}

export function transactionView(tx: LvmTransaction) {
  return {
    hash: tx.hash,
    type: tx.type,
    status: 'executed',
    block_height: tx.blockHeight,
    block_hash: tx.blockHash,
    executed_at: tx.executedAt,
    account_index: tx.fromAccountIndex,
    nonce: tx.nonce,
    transfer: {
      from_account_index: tx.fromAccountIndex,
      to_account_index: tx.toAccountIndex,
      asset_index: tx.assetIndex,
      from_route_type: tx.fromRouteType,
      to_route_type: tx.toRouteType,
      amount: String(tx.amount),
      usdc_fee: String(tx.usdcFee),
      memo: tx.memo,
    },
  };
}
