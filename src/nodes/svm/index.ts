/**
 * The embedded SVM node's face: all the SVM adapter (`chains/svm/`) and the entry points may use of
 * it. The rest of this folder is the node's own.
 */

// the node, run by the adapter (in process, or a spawned solana-test-validator) or alone
export { runSvmNode, type RunningSvmNode, type SvmForkUpstream } from './SvmNode';
export { SvmUpstreamError, SvmUpstreamRpc } from './SvmUpstreamRpc';
export { startSvmNode, type StartedSvmNode } from './startSvmNode';
export { startSolanaTestValidator } from './SolanaTestValidatorProcess';
export type { SvmRpcEndpoints } from './SvmJsonRpcServer';
export type { SvmLedgerHistory } from './SvmLedgerHistory';

// its ledger, the one in-process interface the adapter reads and writes, and the errors it answers with
export {
  SVM_MAX_TRANSACTION_BYTES,
  SvmTransactionDroppedError,
  SvmTransactionRejectedError,
  type SvmBlock,
  type SvmLedger,
  type SvmSimulation,
  type SvmTransactionRecord,
} from './SvmLedger';
export { describeSvmTransactionError, type SvmTransactionErrorJson } from './svmTransactionError';

// its keys and genesis (the accounts, the token accounts, the aggregator's market)
export { deriveSvmAccounts, type SvmAccounts } from './svmAccounts';
export type { SvmKeypair } from './deriveSvmKeypair';
export { svmSignerOfSeed, type SvmSigner } from './svmKeySigner';
export { associatedTokenAccount } from './writeSvmGenesis';
export { writeSvmGenesisAccountFiles } from './writeSvmGenesisAccountFiles';
export {
  SVM_AGGREGATOR_PROGRAM,
  SVM_AGGREGATOR_SOURCE,
  SVM_MARKET_POOLS,
  SVM_MARKET_TOKENS,
  SVM_POOL_VENUES,
  SVM_STABLECOIN_SYMBOL,
  SVM_WRAPPED_NATIVE_SYMBOL,
  svmAggregatorSharedAccount,
  svmMarketMint,
  type SvmPool,
} from './svmAggregatorMarket';

// Solana's wire format and JSON-RPC, as any client of a Solana node uses them: program ids, fees,
// token accounts, transactions decoded and signed, the RPC call and its error
export { MEMO_PROGRAM, NATIVE_MINT, SYSTEM_PROGRAM, TOKEN_ACCOUNT_SIZE, TOKEN_PROGRAM } from './svmProgramIds';
export { LAMPORTS_PER_SIGNATURE } from './svmTransactionFee';
export { readTokenAccount, type SvmTokenBalance } from './svmTokenBalances';
export { decodeSvmTransaction, signatureOfWire, type DecodedSvmTransaction } from './decodeSvmTransaction';
export { impersonatedSvmWire, signSvmWire } from './signSvmWire';
export { callSvmRpc } from './callSvmRpc';
export { SvmRpcError } from './svmRpcEncoding';
