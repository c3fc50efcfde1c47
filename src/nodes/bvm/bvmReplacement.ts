import { rejected, type BvmRpcError } from './bvmRpcError';
import { BVM_PARAMS, feeAt, txidOf } from './bvmConsensus';
import type { BvmTransactionRecord } from './bvmLedgerTypes';

/** Core's MAX_REPLACEMENT_CANDIDATES: a replacement may evict at most this many transactions. */
const MAX_REPLACEMENT_CANDIDATES = 100;
/** Core's DEFAULT_INCREMENTAL_RELAY_FEE: what a replacement pays for its own relay, 1 sat/vB. */
const INCREMENTAL_RELAY_FEE_SAT_PER_KVB = 1000n;

/** A candidate for the mempool: what the replacement rules read of it. */
export interface ReplacementCandidate {
  txid: string;
  fee: bigint;
  vsize: number;
  /** The txids its inputs spend from. */
  parents: readonly string[];
}

/** Fee per 1000 virtual bytes, in satoshis, as Core's CFeeRate(fee, vsize) (rounded down). */
function feeRate(fee: bigint, vsize: number): bigint {
  return (fee * 1000n) / BigInt(vsize);
}

/** A fee rate as Core's CFeeRate::ToString: `0.00002000 BTC/kvB`. */
function formatFeeRate(satPerKvB: bigint): string {
  return `${satPerKvB / BVM_PARAMS.coin}.${(satPerKvB % BVM_PARAMS.coin).toString().padStart(8, '0')} BTC/kvB`;
}

/** An amount as Core's FormatMoney: BTC, trailing zeros trimmed down to two decimals (`0.00001`, `1.00`). */
export function formatMoney(sats: bigint): string {
  return `${sats / BVM_PARAMS.coin}.${(sats % BVM_PARAMS.coin).toString().padStart(8, '0').replace(/(\d\d\d*?)0+$/, '$1')}`;
}

/**
 * Full replace-by-fee as Bitcoin Core ≥ 28 applies it by default (mempoolfullrbf; policy/rbf.cpp,
 * BIP125 without the signalling rule): a transaction spending an output a mempool transaction
 * already spends replaces it, and every descendant of it, when it adds no new unconfirmed input,
 * spends none of what it evicts (checked first), pays a higher fee rate than each transaction it conflicts with,
 * at least their fees and descendants' fees together, and on top of that its own relay at the
 * incremental relay fee. Returns the refusal Core answers (-26), or undefined when it may replace.
 */
export function replacementRefusal(candidate: ReplacementCandidate, conflicts: readonly BvmTransactionRecord[], evicted: readonly BvmTransactionRecord[], inMempool: (txid: string) => boolean): BvmRpcError | undefined {
  const { txid } = candidate;
  // checked first, as Core's PreChecks does before the replacement rules
  const spent = evicted.find((record) => candidate.parents.includes(record.txid));
  if (spent) return rejected(`bad-txns-spends-conflicting-tx, ${txid} spends conflicting transaction ${spent.txid}`);
  if (evicted.length > MAX_REPLACEMENT_CANDIDATES) return rejected(`too many potential replacements, rejecting replacement ${txid}; too many potential replacements (${evicted.length} > ${MAX_REPLACEMENT_CANDIDATES})`);
  const conflictParents = new Set(conflicts.flatMap((record) => record.tx.ins.map((input) => txidOf(input.hash))));
  const newParent = candidate.parents.findIndex((parent) => inMempool(parent) && !conflictParents.has(parent));
  if (newParent >= 0) return rejected(`replacement-adds-unconfirmed, replacement ${txid} adds unconfirmed input, idx ${newParent}`);
  const rate = feeRate(candidate.fee, candidate.vsize);
  for (const conflict of conflicts) {
    const original = feeRate(conflict.fee, conflict.vsize);
    if (rate <= original) return rejected(`insufficient fee, rejecting replacement ${txid}; new feerate ${formatFeeRate(rate)} <= old feerate ${formatFeeRate(original)}`);
  }
  const evictedFees = evicted.reduce((sum, record) => sum + record.fee, 0n);
  if (candidate.fee < evictedFees) return rejected(`insufficient fee, rejecting replacement ${txid}, less fees than conflicting txs; ${formatMoney(candidate.fee)} < ${formatMoney(evictedFees)}`);
  const additional = candidate.fee - evictedFees;
  const relay = feeAt(INCREMENTAL_RELAY_FEE_SAT_PER_KVB, candidate.vsize);
  if (additional < relay) return rejected(`insufficient fee, rejecting replacement ${txid}, not enough additional fees to relay; ${formatMoney(additional)} < ${formatMoney(relay)}`);
  return undefined;
}
