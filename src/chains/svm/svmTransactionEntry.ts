import type { Hex } from 'viem';
import type { Currency } from '../../domain/chain/currency';
import { usdMicrosOf } from '../../domain/money/usdValue';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { SvmTransactionRecord } from '../../nodes/svm/SvmLedger';
import type { SvmLedgerAccess } from './SvmLedgerAccess';

/** A mined SVM transaction as a request's transaction entry (SPEC §2.3): its slot, the slot's blockhash, fee and status. */
export async function svmTransactionEntry(
  access: SvmLedgerAccess,
  chain: { chainId: number; nativeCurrency: Currency },
  record: SvmTransactionRecord,
  type: TransactionEntry['type'],
  data: TransactionEntry['data'],
): Promise<TransactionEntry> {
  const block = await access.block(record.slot);
  return {
    txHash: record.signature as Hex,
    chainId: chain.chainId,
    type,
    fee: record.fee,
    feeUsdMicros: usdMicrosOf(record.fee, chain.nativeCurrency),
    block: Number(record.slot),
    blockHash: (block?.blockhash ?? '') as Hex,
    timestamp: record.blockTime,
    status: record.err === null ? 'success' : 'failure',
    data,
  };
}
