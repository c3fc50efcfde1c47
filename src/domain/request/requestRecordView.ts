import { formatUnits } from 'viem';
import { amountObject, currencyObject } from '../money/amountObject';
import type { Currency } from '../chain/currency';
import type { AppFeesRecord, RequestRecord, TransactionEntry } from './requestRecord';
import { reportedFailReason, type FailReason } from './requestStatus';
import { convertAmount, formatUsd, usdMicrosOf } from '../money/usdValue';

/** SPEC §2.3: a transaction entry of `data.inTxs[]` / `data.outTxs[]`, amounts as strings. */
export function transactionEntryView(entry: TransactionEntry) {
  return {
    txHash: entry.txHash,
    fee: entry.fee.toString(),
    feeUsd: formatUsd(entry.feeUsdMicros),
    block: entry.block,
    type: entry.type,
    chainId: entry.chainId,
    timestamp: entry.timestamp,
    status: entry.status,
    data: {
      from: entry.data.from,
      to: entry.data.to,
      currency: entry.data.currency,
      amount: entry.data.amount.toString(),
      ...(entry.data.logIndex === undefined ? {} : { logIndex: entry.data.logIndex }),
      ...(entry.data.deliveries === undefined
        ? {}
        : { deliveries: entry.data.deliveries.map((delivery) => ({ to: delivery.to, currency: delivery.currency, amount: delivery.amount.toString() })) }),
    },
    // the simulator does not trace transactions: no state diff is known
    stateChanges: null,
    ...(entry.metadata?.reorg ? { metadata: { reorg: { ...entry.metadata.reorg } } } : {}),
  };
}

export type TransactionEntryView = ReturnType<typeof transactionEntryView>;

/** Total of a list of app fees, in the app fee currency's smallest unit. */
function appFeesTotal(fees: AppFeesRecord['quoted']): bigint {
  return fees.reduce((sum, fee) => sum + fee.amount, 0n);
}

/**
 * Total app fees in micro-USD (SPEC §4.3 `appFeesAmountUsdMin/Max`): the fees actually taken
 * once there are any, else the quoted ones; 0 for a request without app fees.
 */
export function appFeesUsdMicrosOf(record: RequestRecord): bigint {
  if (!record.appFees) return 0n;
  const fees = record.appFees.actual.length > 0 ? record.appFees.actual : record.appFees.quoted;
  return usdMicrosOf(appFeesTotal(fees), record.appFees.currency);
}

/** `currencyIn.amountUsd` in micro-USD: the quoted input (SPEC §4.3 `amountUsdMin/Max`, `sortBy=amountUsd`). */
export function amountUsdMicrosOf(record: RequestRecord): bigint {
  return usdMicrosOf(record.quote.amounts.amountIn, record.quote.currencyIn);
}

function appFeesView(appFees: AppFeesRecord) {
  const { currency } = appFees;
  const formatted = (amount: bigint) => formatUnits(amount, currency.decimals);
  return {
    quoted: appFees.quoted.map((fee) => ({
      recipient: fee.recipient,
      bps: fee.bps.toString(),
      amount: fee.amount.toString(),
      amountFormatted: formatted(fee.amount),
    })),
    actual: appFees.actual.map((fee) => ({
      recipient: fee.recipient,
      bps: fee.bps.toString(),
      amount: fee.amount.toString(),
      amountFormatted: formatted(fee.amount),
      amountUsd: formatUsd(usdMicrosOf(fee.amount, currency)),
    })),
    currency: currencyObject(currency),
  };
}

/** One fee component of `data.fees` ({ usd, amount, amountFormatted }) in the fee currency. */
function feeComponent(currency: Currency, amount: bigint) {
  return { usd: formatUsd(usdMicrosOf(amount, currency)), amount: amount.toString(), amountFormatted: formatUnits(amount, currency.decimals) };
}

/**
 * `data.fees.quoted` (or, with the app fees taken, `data.fees.actual`), in the input currency (the
 * relayer fee currency): execution = fill gas, platform = service fee, app = the app fees
 * converted at fixture prices. The solver charges what it quoted, so only the app fees differ.
 */
function feesView(record: RequestRecord, appFees: 'quoted' | 'actual') {
  const { currencyIn, amounts } = record.quote;
  const app = record.appFees ? convertAmount(appFeesTotal(record.appFees[appFees]), record.appFees.currency, currencyIn, 'up') : 0n;
  return {
    swap: feeComponent(currencyIn, 0n),
    execution: feeComponent(currencyIn, amounts.relayerGas),
    platform: feeComponent(currencyIn, amounts.relayerService),
    app: feeComponent(currencyIn, app),
    sponsored: feeComponent(currencyIn, 0n),
  };
}

/** `data.failReason`: the recorded reason (or UNKNOWN) on failure and refund, else null. */
function failReasonOf(record: RequestRecord): FailReason | null {
  return record.status === 'failure' || record.status === 'refund' ? reportedFailReason(record.status, record.failReason) : null;
}

/** The amount paid back by the first refund, in the input currency, once there is one. */
function refundCurrencyData(record: RequestRecord) {
  const refund = record.outTxs.find((tx) => tx.type === 'refund' && tx.status === 'success');
  if (!refund) return null;
  const currency = refund.data.currency.toLowerCase() === record.quote.currencyIn.address.toLowerCase() ? record.quote.currencyIn : undefined;
  return currency ? amountObject(currency, refund.data.amount) : null;
}

/**
 * Fields only the integrator whose key made the request sees (SPEC §5.5,
 * `includeAuthenticatedData=true`): its `referrer` and the `platformFee` split.
 */
function authenticatedDataView(record: RequestRecord) {
  const { currencyIn, amounts, serviceFeeBps } = record.quote;
  const appFees = record.appFees;
  const integratorFeeBps = appFees ? appFees.quoted.reduce((sum, fee) => sum + fee.bps, 0n) : 0n;
  return {
    referrer: record.quote.referrer,
    platformFee: {
      relayFeeBps: Number(serviceFeeBps),
      integratorFeeBps: Number(integratorFeeBps),
      totalFeeBps: Number(serviceFeeBps + integratorFeeBps),
      relayFee: amountObject(currencyIn, amounts.relayerService),
      integratorFee: appFees ? amountObject(appFees.currency, appFeesTotal(appFees.quoted)) : null,
      integratorFeeRecipient: appFees?.quoted[0]?.recipient ?? null,
    },
  };
}

export interface RequestRecordViewOptions {
  /** Add the fields of `authenticatedDataView` (the caller's key made this request and asked for them). */
  includeAuthenticatedData: boolean;
}

/** SPEC §2.3: one element of `requests` from `GET /requests/v3`. Pure: no I/O. */
export function buildRequestRecordView(record: RequestRecord, options: RequestRecordViewOptions = { includeAuthenticatedData: false }) {
  const { quote } = record;
  const currencyOutAmount = record.fillAmount ?? quote.amounts.amountOut;
  return {
    id: record.id,
    status: record.status,
    user: quote.user,
    recipient: quote.recipient,
    sender: record.depositor,
    refundTo: record.refundTo,
    supersededByRequestId: record.supersededByRequestId,
    depositAddress: record.depositAddress ? { ...record.depositAddress } : null,
    data: {
      slippageTolerance: quote.slippageBps.toString(),
      failReason: failReasonOf(record),
      refundFailReason: record.refundFailReason,
      // SPEC §2.3 types these without null: a field with no value is left out, never null
      ...(record.failedTxHash === null ? {} : { failedTxHash: record.failedTxHash }),
      ...(record.failedTxBlockNumber === null ? {} : { failedTxBlockNumber: record.failedTxBlockNumber }),
      ...(record.failedCallData === null ? {} : { failedCallData: { ...record.failedCallData, value: record.failedCallData.value.toString() } }),
      usesExternalLiquidity: record.usesExternalLiquidity,
      timeEstimate: quote.timeEstimateSeconds,
      triggeredByFastFill: record.triggeredByFastFill,
      inTxs: record.inTxs.map(transactionEntryView),
      outTxs: record.outTxs.map(transactionEntryView),
      ...(record.appFees ? { appFees: appFeesView(record.appFees) } : {}),
      ...(record.feeSponsorship ? { feeSponsorship: record.feeSponsorship } : {}),
      fees: {
        quoted: feesView(record, 'quoted'),
        // what the fill charged: known once it succeeded
        ...(record.status === 'success' ? { actual: feesView(record, 'actual') } : {}),
        currency: currencyObject(quote.currencyIn),
      },
      metadata: {
        sender: quote.user,
        recipient: quote.recipient,
        currencyIn: amountObject(quote.currencyIn, quote.amounts.amountIn),
        currencyOut: amountObject(quote.currencyOut, currencyOutAmount, quote.amounts.minimumAmountOut),
      },
      refundCurrencyData: refundCurrencyData(record),
      ...(options.includeAuthenticatedData ? authenticatedDataView(record) : {}),
    },
    protocol: quote.orderId ? { orderId: quote.orderId, hubType: 'onchain' as const } : null,
    requestType: quote.requestType,
    features: [...quote.features],
    createdAt: new Date(record.createdAt).toISOString(),
    updatedAt: new Date(record.updatedAt).toISOString(),
  };
}

export type RequestRecordView = ReturnType<typeof buildRequestRecordView>;
