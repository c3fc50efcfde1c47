import type { Address, Hex } from 'viem';
import type { QuoteAmounts, TradeType } from '../quote/quoteAmounts';
import type { Currency } from '../chain/currency';
import type { DestinationAction } from '../quote/planRoute';
import type { OrientedReserves } from '../quote/routePricing';
import type { QuoteOptionFacts } from '../quoteOptions/storedOptionFacts';
import type { FailReason, RefundFailReason, RequestStatus } from './requestStatus';
import type { FailureDetails } from '../fill/chainFailure';

/** SPEC §1.2 request types. */
export const REQUEST_TYPES = ['Bridge', 'Crosschain Swap', 'Same-chain Swap', 'Send', 'Wrap', 'Unwrap', 'Call'] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

/** SPEC §2.3: a transaction entry of `inTxs[]` / `outTxs[]`. */
export interface TransactionEntry {
  txHash: Hex;
  chainId: number;
  /** deposit | fill | refund; `call`: a gasless raw call the relayer sent (a `Call` request of `/execute` without requestId) */
  type: 'deposit' | 'fill' | 'refund' | 'call';
  /** gas fee paid, smallest native unit */
  fee: bigint;
  feeUsdMicros: bigint;
  block: number;
  blockHash: Hex;
  /** unix seconds of the block */
  timestamp: number;
  status: 'success' | 'failure';
  data: {
    from: Address;
    to: Address;
    currency: Address;
    amount: bigint;
    logIndex?: number;
    /** Everything the transaction delivered to parties other than the simulator's own contracts, as the chain shows it. */
    deliveries?: Delivery[];
  };
  metadata?: { reorg?: ReorgMetadata };
  /**
   * The request's last status event (its `seq`) when this entry was recorded, set by the lifecycle:
   * where the entry stands among the status changes whatever clock its `timestamp` comes from (the
   * explorer's timeline). Absent on entries stored before it. Not part of the SPEC's entry.
   */
  recordedAfterEventSeq?: number;
}

/** One transfer a solver transaction made to someone (recipient, call target, refund recipient). */
export interface Delivery {
  to: Address;
  /** Zero address: native currency. */
  currency: Address;
  amount: bigint;
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

/** SPEC §4.3 `features`: optional features a request used. */
export const REQUEST_FEATURES = ['gasless_execution', 'gasless_swap', 'fast_fill', 'gas_top_up', 'fixed_rate', 'app_fees', 'deposit_address'] as const;
export type RequestFeature = (typeof REQUEST_FEATURES)[number];

/** SPEC §2.3 `depositAddress`. */
export interface DepositAddressInfo {
  address: string;
  type: 'open' | 'strict';
  depositor: string | null;
  depositTxHash: Hex | null;
  recoveryAddress: string | null;
}

/** SPEC §2.3 `data.appFees`: amounts in the fee currency's smallest unit. */
export interface AppFeesRecord {
  currency: Currency;
  quoted: Array<{ recipient: string; bps: bigint; amount: bigint }>;
  actual: Array<{ recipient: string; bps: bigint; amount: bigint }>;
}

/** SPEC §2.3 `data.failedCallData`. */
export interface FailedCallData {
  from: string;
  to: string;
  data: Hex;
  value: bigint;
}

/** A destination call attached to a quote (`txs[]`), executed by the fill. */
export interface DestinationCall {
  to: Address;
  value: bigint;
  data: Hex;
}

/** Route planning kept with the request: what the solver spends and does on the destination. */
export interface QuoteRoute {
  /** The currency the solver spends from its inventory on the destination. */
  solverCurrency: Currency;
  action: DestinationAction;
  /** How much of `solverCurrency` the quote spends. */
  destinationAmountIn: bigint;
  /** The pool's reserves as quoted, oriented for the swap (null without a pool). */
  quotedPool: OrientedReserves | null;
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
  amounts: QuoteAmounts;
  serviceFeeBps: bigint;
  slippageBps: bigint;
  timeEstimateSeconds: number;
  /** The depository the deposit step pays into. */
  depository: Address;
  quotedAt: number;
  /** SPEC §4.3 `features` the request uses. */
  features: RequestFeature[];
  /** protocol.v2 orderId when the quote settles through the depository (SPEC §2.2). */
  orderId: Hex | null;
  /** Route planning (absent on records stored before swaps existed: a plain transfer). */
  route?: QuoteRoute;
  /** Destination calls attached to the quote (`txs`), executed by the fill. */
  calls?: DestinationCall[];
  /** SPEC §1.6 options the quote was priced with (app fees, sponsorship, top-up, fixed rate). */
  options?: QuoteOptionFacts;
}

/** The route of a quote; records stored before swaps existed were plain transfers. */
export function routeOf(quote: QuoteFacts): QuoteRoute {
  return quote.route ?? { solverCurrency: quote.currencyOut, action: { kind: 'transfer' }, destinationAmountIn: quote.amounts.amountOut, quotedPool: null };
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
  /** The API key the quote was made with (x-api-key), if any: listing, webhooks and §5 attribution. */
  apiKey: string | null;
  /** SPEC §2.3 `refundTo`. */
  refundTo: string | null;
  /** SPEC §2.3 `depositAddress`. */
  depositAddress: DepositAddressInfo | null;
  /** SPEC §2.3 `supersededByRequestId`. */
  supersededByRequestId: Hex | null;
  /** SPEC §2.3 `data.failedCallData`. */
  failedCallData: FailedCallData | null;
  /**
   * Why the fill (or relayed call) failed, mined or simulated before sending, in the chain's words
   * (EVM: the decoded revert) with its label: status `details.decodedRevert` (SPEC §2.4). Absent
   * when no fill failed (and on records stored before it).
   */
  failedRevert?: FailureDetails;
  /** SPEC §2.3 `data.appFees`. */
  appFees: AppFeesRecord | null;
  /** SPEC §2.3 `data.feeSponsorship` (its `quoted` part), JSON as it is reported. */
  feeSponsorship: { quoted: unknown } | null;
  /** SPEC §2.3 `data.usesExternalLiquidity`. */
  usesExternalLiquidity: boolean;
  /** SPEC §2.3 `data.triggeredByFastFill`. */
  triggeredByFastFill: boolean | null;
}

/** What a quote may set on a new request besides its facts. */
export type NewRequestInit = Partial<
  Pick<RequestRecord, 'apiKey' | 'refundTo' | 'depositAddress' | 'appFees' | 'feeSponsorship' | 'usesExternalLiquidity' | 'triggeredByFastFill'>
>;

/** A request as created at quote time: `waiting`, no transactions, no failure. */
export function newWaitingRequest(id: Hex, quote: QuoteFacts, now: number, init: NewRequestInit = {}): RequestRecord {
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
    apiKey: null,
    refundTo: null,
    depositAddress: null,
    supersededByRequestId: null,
    failedCallData: null,
    appFees: null,
    feeSponsorship: null,
    usesExternalLiquidity: false,
    triggeredByFastFill: null,
    ...init,
  };
}
