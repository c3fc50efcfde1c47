import type { Hex } from 'viem';
import type { Currency } from '../chain/currency';
import { usdMicrosOf } from '../money/usdValue';
import type { TransactionEntry } from './requestRecord';

/** What a chain knows of a mined transaction, in its own terms, for a request's entry. */
export interface MinedTransactionFacts {
  txHash: string;
  /** The fee paid, smallest unit of `feeCurrency`. */
  fee: bigint;
  feeCurrency: Currency;
  block: number;
  blockHash: string;
  /** Unix seconds of the block. */
  timestamp: number;
  status: TransactionEntry['status'];
}

/**
 * A mined transaction as a request's transaction entry (SPEC §2.3): the one shape every chain
 * kind's adapter fills in (hashes in the chain's own form, the fee also in USD micros).
 */
export function minedTransactionEntry(chainId: number, facts: MinedTransactionFacts, type: TransactionEntry['type'], data: TransactionEntry['data']): TransactionEntry {
  return {
    txHash: facts.txHash as Hex,
    chainId,
    type,
    fee: facts.fee,
    feeUsdMicros: usdMicrosOf(facts.fee, facts.feeCurrency),
    block: facts.block,
    blockHash: facts.blockHash as Hex,
    timestamp: facts.timestamp,
    status: facts.status,
    data,
  };
}
