import type { Currency } from '../../domain/chain/currency';
import { minedTransactionEntry } from '../../domain/request/minedTransactionEntry';
import type { TransactionEntry } from '../../domain/request/requestRecord';
import type { SvmTransactionRecord } from '../../nodes/svm';
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
  return minedTransactionEntry(
    chain.chainId,
    {
      txHash: record.signature,
      fee: record.fee,
      feeCurrency: chain.nativeCurrency,
      block: Number(record.slot),
      blockHash: block?.blockhash ?? '',
      timestamp: record.blockTime,
      status: record.err === null ? 'success' : 'failure',
    },
    type,
    data,
  );
}
