import { V1_STATUS, V2_STATUS } from '../request/legacyStatusNames';
import type { RequestRecord } from '../request/requestRecord';
import { buildRequestRecordView, type RequestRecordView, type RequestRecordViewOptions, type TransactionEntryView } from '../request/requestRecordView';
import { statusEventDepositAddress } from '../request/statusResponse';
import { usdMicrosOf } from '../money/usdValue';

/** The older transaction entry: `hash` where v3 says `txHash` (SDK types of `/requests`, `/requests/v2`). */
function legacyTransactionEntry(entry: TransactionEntryView) {
  const { txHash, ...rest } = entry;
  return { hash: txHash, ...rest };
}

/** The older `data.fees` / `data.feesUsd`: gas (fill gas), fixed (0) and price (service fee), in the input currency; USD in micro-USD. */
function legacyFees(record: RequestRecord) {
  const { currencyIn, amounts } = record.quote;
  const usd = (amount: bigint) => usdMicrosOf(amount, currencyIn).toString();
  return {
    fees: { gas: amounts.relayerGas.toString(), fixed: '0', price: amounts.relayerService.toString() },
    feesUsd: { gas: usd(amounts.relayerGas), fixed: '0', price: usd(amounts.relayerService) },
  };
}

/**
 * The older `data.feeSponsorship`: the bucket v3 calls `platform` is `relay` there (SDK types of
 * `/requests/v2`), in `selectedComponents` and in `components`.
 */
function legacyFeeSponsorship(feeSponsorship: { quoted: unknown }) {
  const quoted = feeSponsorship.quoted as { selectedComponents: string[]; components: Record<string, unknown> };
  const { platform, ...components } = quoted.components;
  return {
    quoted: {
      ...quoted,
      selectedComponents: quoted.selectedComponents.map((component) => (component === 'platform' ? 'relay' : component)),
      components: { ...components, relay: platform },
    },
  };
}

/**
 * The older app fees (SDK types of `/requests`, `/requests/v2`): `appFees` lists the quoted fees,
 * `paidAppFees` the fees taken, `appFeeCurrencyObject` their currency.
 */
function legacyAppFees(appFees: RequestRecordView['data']['appFees']) {
  if (!appFees) return {};
  return {
    appFees: appFees.quoted.map(({ recipient, bps, amount }) => ({ recipient, bps, amount })),
    paidAppFees: appFees.actual.map(({ recipient, bps, amount, amountUsd }) => ({ recipient, bps, amount, amountUsd })),
    appFeeCurrencyObject: appFees.currency,
  };
}

/** The fields of the older records' `data` the SDK types without null: left out when they have no value. */
const LEGACY_FIELDS_WITHOUT_NULL = ['failReason', 'refundFailReason', 'refundCurrencyData', 'triggeredByFastFill', 'timeEstimate'] as const;

function withoutNullFields<T extends object>(data: T, fields: readonly string[]): T {
  return Object.fromEntries(Object.entries(data).filter(([key, value]) => !(value === null && fields.includes(key)))) as T;
}

/**
 * The request record of the deprecated `GET /requests/v2` (and, with `version: 1`, `GET /requests`):
 * the v3 record with the field names the older endpoints used (SDK types): `inTxs[].hash`,
 * `depositAddress.depositAddressType`, `data.supersededByRequestId`, `data.fees` as
 * gas/fixed/price, `data.currency`, the v1/v2 status enums, and a top-level `referrer`; the
 * `relay` sponsorship bucket; no null where those types have none (no `protocol` without an order).
 */
export function buildLegacyRequestRecordView(record: RequestRecord, version: 1 | 2, options?: RequestRecordViewOptions) {
  const v3 = buildRequestRecordView(record, options);
  const { fees: _fees, appFees, ...data } = v3.data;
  const depositAddress = statusEventDepositAddress(record.depositAddress);
  return {
    id: v3.id,
    status: (version === 1 ? V1_STATUS : V2_STATUS)[record.status],
    user: v3.user,
    recipient: v3.recipient,
    ...(version === 2 ? { depositAddress } : {}),
    data: {
      ...withoutNullFields(data, LEGACY_FIELDS_WITHOUT_NULL),
      ...legacyAppFees(appFees),
      ...(version === 2 ? { supersededByRequestId: v3.supersededByRequestId } : {}),
      ...(record.feeSponsorship ? { feeSponsorship: legacyFeeSponsorship(record.feeSponsorship) } : {}),
      ...legacyFees(record),
      currency: record.quote.currencyIn.symbol.toLowerCase(),
      currencyObject: v3.data.metadata.currencyIn.currency,
      inTxs: v3.data.inTxs.map(legacyTransactionEntry),
      outTxs: v3.data.outTxs.map(legacyTransactionEntry),
    },
    ...(version === 2 && v3.protocol ? { protocol: v3.protocol } : {}),
    referrer: record.quote.referrer ?? undefined,
    createdAt: v3.createdAt,
    updatedAt: v3.updatedAt,
  };
}
