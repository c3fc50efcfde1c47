/** One JSON-RPC call as a client sent it. */
export interface JsonRpcCall {
  method: string;
  params?: unknown;
}

/**
 * What a call does to an EVM node, for the front's journal:
 * - `read`: changes nothing (reads, filters, subscriptions, `eth_sign*`): forwarded, never journaled;
 * - `transaction`: a user's transaction (`eth_sendRawTransaction`, `eth_sendTransaction`);
 * - `state`: a cheat that sets state (balances, code, storage, nonces, impersonation, time);
 * - `miningMode`: automine and interval mining, restored once the chain is rebuilt;
 * - `chainMove`: a cheat that mines, reverts, reorgs or empties the pool: what it did is in the
 *   block journal once its blocks are indexed, so it is replayed only when they were not.
 */
export type EvmCallKind = 'read' | 'transaction' | 'state' | 'miningMode' | 'chainMove';

const TRANSACTIONS = new Set(['eth_sendRawTransaction', 'eth_sendTransaction', 'eth_sendRawTransactionSync', 'eth_sendTransactionSync']);
const MINING_MODE = new Set(['evm_setAutomine', 'anvil_setAutomine', 'evm_setIntervalMining', 'anvil_setIntervalMining']);
const CHAIN_MOVES = new Set([
  'evm_mine',
  'anvil_mine',
  'hardhat_mine',
  'anvil_mine_detailed',
  'evm_mine_detailed',
  'evm_snapshot',
  'anvil_snapshot',
  'evm_revert',
  'anvil_revert',
  'anvil_reorg',
  'anvil_rollback',
  'anvil_reset',
  'hardhat_reset',
  'anvil_loadState',
  'anvil_dropTransaction',
  'hardhat_dropTransaction',
  'anvil_dropAllTransactions',
  'anvil_removePoolTransactions',
]);
/** Cheats that read or change nothing of the chain. */
const CHEAT_READS = new Set(['anvil_nodeInfo', 'anvil_metadata', 'anvil_getAutomine', 'hardhat_getAutomine', 'anvil_dumpState', 'hardhat_metadata', 'anvil_getIntervalMining']);

export function evmCallKind(method: string): EvmCallKind {
  if (TRANSACTIONS.has(method)) return 'transaction';
  if (MINING_MODE.has(method)) return 'miningMode';
  if (CHAIN_MOVES.has(method)) return 'chainMove';
  if (CHEAT_READS.has(method)) return 'read';
  if (method.startsWith('anvil_') || method.startsWith('hardhat_') || method.startsWith('evm_')) return 'state';
  return 'read';
}

/** Whether the front journals the call before it forwards it. */
export function changesTheChain(method: string): boolean {
  return evmCallKind(method) !== 'read';
}
