/**
 * The embedded Bitcoin-style node's face: all the BVM adapter (`chains/bvm/`) and the entry points
 * may use of it. The rest of this folder is the node's own.
 */

// the node, run by the adapter or alone
export { BvmNode, MAX_TIMER_BLOCKS_PER_STEP, type BvmNodeOptions, type BvmForkUpstream } from './BvmNode';
export { BvmUpstreamError, BvmUpstreamEsplora, BVM_UPSTREAM_TIMEOUT_MS } from './BvmUpstreamEsplora';
export type { BvmReadThrough } from './BvmReadThrough';
export { startBvmNode, type StartedBvmNode, type BvmNodeStartOptions } from './startBvmNode';

// its ledger, the one in-process interface the adapter reads and writes, and the errors it answers with
export { formatBtc, dustThreshold, type BvmLedger, type BvmBlock, type BvmCoin, type BvmEviction, type BvmTransactionRecord } from './BvmLedger';
export { BvmRpcError } from './bvmRpcError';

// its keys and genesis
export { depositKeyFor, bvmKeyFromWif, type BvmAccounts, type BvmKey } from './bvmAccounts';
export { BVM_TEST_ACCOUNT_OUTPUTS } from './writeBvmGenesis';

// Bitcoin's transaction format as the node validates it: scripts, addresses, ids, fees, coin choice, signing
export { BVM_NETWORK, bitcoin, addressOfScript, outputScriptOf, isP2wpkhScript } from './bvmCrypto';
export { txidOf } from './bvmConsensus';
export { p2wpkhFee, selectCoins, signP2wpkhTransaction } from './bvmTransactions';
export { spendableCoinsOf } from './bvmSpendableCoins';
