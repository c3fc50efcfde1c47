import type { LvmAccount, LvmTransaction } from './LvmLedger';
import { LVM_ASSETS, USDC_ASSET } from './lvmAssets';
import type { LvmBlock } from './lvmBlocks';

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

/** Lighter's transaction type of a transfer (`type` in the API; TX_TYPE_TRANSFER of its SDKs). */
export const LVM_TX_TYPE_TRANSFER = 12;
/** Lighter's transaction status `executed` (0 failed, 1 pending, 2 executed): every transfer here executes at once. */
export const LVM_TX_STATUS_EXECUTED = 2;

/**
 * A transaction as the exchange's API answers it (its `EnrichedTx` / `Tx`): `info` is the signed
 * transfer as JSON in a string, with Lighter's keys; the times are unix milliseconds (queued,
 * executed, committed and verified at once here). `transfer` is the simulator's own readable copy
 * of `info`, beside the real fields.
 */
export function transactionView(tx: LvmTransaction, l1Address: string) {
  const info = {
    FromAccountIndex: tx.fromAccountIndex,
    ApiKeyIndex: 0,
    ToAccountIndex: tx.toAccountIndex,
    AssetIndex: tx.assetIndex,
    FromRouteType: tx.fromRouteType,
    ToRouteType: tx.toRouteType,
    Amount: Number(tx.amount),
    USDCFee: Number(tx.usdcFee),
    Memo: tx.memo,
    Nonce: tx.nonce,
  };
  return {
    hash: tx.hash,
    type: LVM_TX_TYPE_TRANSFER,
    info: JSON.stringify(info),
    event_info: '{}',
    status: LVM_TX_STATUS_EXECUTED,
    transaction_index: 0,
    l1_address: l1Address,
    account_index: tx.fromAccountIndex,
    nonce: tx.nonce,
    expire_at: 0,
    block_height: tx.blockHeight,
    queued_at: tx.executedAt,
    executed_at: tx.executedAt,
    sequence_index: tx.sequenceIndex,
    parent_hash: '',
    committed_at: tx.executedAt,
    verified_at: tx.executedAt,
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

/**
 * A block as the exchange's API answers it (its `Block`): `commitment` is the block's hash; no
 * L1 commits or verifies here, so the L1 hashes are empty and the state root too.
 */
export function blockView(block: LvmBlock, txView: (tx: LvmTransaction) => ReturnType<typeof transactionView>) {
  return {
    commitment: block.hash,
    height: block.height,
    state_root: '',
    priority_operations: 0,
    on_chain_l2_operations: 0,
    pending_on_chain_operations_pub_data: '',
    committed_tx_hash: '',
    committed_at: block.timestamp,
    verified_tx_hash: '',
    verified_at: block.timestamp,
    txs: block.transactions.map(txView),
    status: LVM_TX_STATUS_EXECUTED,
    size: block.transactions.length,
  };
}
