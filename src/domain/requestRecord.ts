import type { Address, Hex } from 'viem';
import type { BridgeQuoteAmounts, TradeType } from './bridgeQuote';
import type { Currency } from './currency';
import type { FailReason, RefundFailReason, RequestStatus } from './requestStatus';

/** SPEC §1.2 request types. */
export type RequestType = 'Bridge' | 'Crosschain Swap' | 'Same-chain Swap' | 'Send' | 'Wrap' | 'Unwrap' | 'Call';

/** SPEC §2.3: a transaction entry of `inTxs[]` / `outTxs[]`. */
export interface TransactionEntry {
  txHash: Hex;
  chainId: number;
  /** deposit | fill | refund */
  type: 'deposit' | 'fill' | 'refund';
  /** gas fee paid, smallest native unit */
  fee: bigint;
  feeUsdMicros: bigint;
  block: number;
  blockHash: Hex;
  /** unix seconds of the block */
  timestamp: number;
  status: 'success' | 'failure';
  data: { from: Address; to: Address; currency: Address; amount: bigint; logIndex?: number };
  metadata?: { reorg?: ReorgMetadata };
}

/** SPEC §2.3: `metadata.reorg` on failed inTxs caught by the reorg/finality path. */
export interface ReorgMetadata {
  detectedAt: number;
  source: string;
  reason: string;
  blockNumber?: number;
  blockHash?: Hex;
  action?: 'fill' | 'refund';
  failReason?: FailReason;
}

/** Everything decided at quote time, kept with the request. */
export interface QuoteFacts {
  requestType: RequestType;
  operation: 'bridge' | 'swap' | 'send' | 'wrap' | 'unwrap' | 'call';
  tradeType: TradeType;
  user: Address;
  recipient: Address;
  referrer: string | null;
  originChainId: number;
  destinationChainId: number;
  currencyIn: Currency;
  currencyOut: Currency;
  amounts: BridgeQuoteAmounts;
  serviceFeeBps: bigint;
  slippageBps: bigint;
  timeEstimateSeconds: number;
  /** The depository the deposit step pays into. */
  depository: Address;
  quotedAt: number;
}

export interface RequestRecord {
  id: Hex;
  status: RequestStatus;
  createdAt: number;
  updatedAt: number;
  quote: QuoteFacts;
  /** Who actually deposited (SPEC §2.3 `sender`). */
  depositor: Address | null;
  inTxs: TransactionEntry[];
  outTxs: TransactionEntry[];
  failReason: FailReason | null;
  refundFailReason: RefundFailReason | null;
  failedTxHash: Hex | null;
  failedTxBlockNumber: number | null;
  /** What was actually paid out to the recipient, once decided. */
  fillAmount: bigint | null;
  /** Solver transactions broadcast but not yet mined (their hashes show in status as soon as sent). */
  submittedTxs: Array<{ txHash: Hex; chainId: number; type: 'fill' | 'refund' }>;
}

/** A request as created at quote time: `waiting`, no transactions, no failure. */
export function newWaitingRequest(id: Hex, quote: QuoteFacts, now: number): RequestRecord {
  return {
    id,
    status: 'waiting',
    createdAt: now,
    updatedAt: now,
    quote,
    depositor: null,
    inTxs: [],
    outTxs: [],
    failReason: null,
    refundFailReason: null,
    failedTxHash: null,
    failedTxBlockNumber: null,
    fillAmount: null,
    submittedTxs: [],
  };
}
