import { parseUnits } from 'viem';
import { REQUEST_FEATURES, type RequestRecord, type RequestType } from '../request/requestRecord';
import { amountUsdMicrosOf, appFeesUsdMicrosOf } from '../request/requestRecordView';
import { FAIL_REASONS, REFUND_FAIL_REASONS, REQUEST_STATUSES, reportedFailReason, reportedRefundFailReason } from '../request/requestStatus';

/**
 * SPEC §4.3: the filters of `GET /requests/v3`, as pure predicates over a stored request.
 * The same field names serve as query parameters and as keys of the `filters` groups.
 */
export const LIST_FILTER_FIELDS = [
  'user', 'term', 'id', 'orderId', 'depositTxHash', 'fillTxHash', 'refundTxHash',
  'originChainId', 'destinationChainId', 'chainId', 'depositAddress', 'recipient', 'status',
  'failReason', 'refundFailReason', 'apiKey', 'requestType',
  'currencyInChainId', 'currencyOutChainId', 'currencyInAddress', 'currencyOutAddress', 'currencyInSymbol', 'currencyOutSymbol',
  'startTimestamp', 'endTimestamp', 'startBlock', 'endBlock', 'amountUsdMin', 'amountUsdMax',
  'appFeesAmountUsdMin', 'appFeesAmountUsdMax', 'fillTimeMin', 'fillTimeMax', 'features',
  // the older endpoints only (`GET /requests`, `/requests/v2`): any tx hash, the quote's
  // referrer, and their `user` (sender or recipient)
  'hash', 'referrer', 'senderOrRecipient',
] as const;
export type ListFilterField = (typeof LIST_FILTER_FIELDS)[number];

const LEGACY_ONLY_FIELDS: readonly ListFilterField[] = ['hash', 'referrer', 'senderOrRecipient'];
/** The filter fields of `GET /requests/v3` (its query parameters and `filters` keys). */
export const V3_FILTER_FIELDS: readonly ListFilterField[] = LIST_FILTER_FIELDS.filter((f) => !LEGACY_ONLY_FIELDS.includes(f));

export const LIST_SORT_KEYS = ['createdAt', 'updatedAt', 'amountUsd'] as const;
export type ListSortKey = (typeof LIST_SORT_KEYS)[number];

/** SPEC §1.2 request types, matched case-insensitively. */
const REQUEST_TYPES: readonly RequestType[] = ['Bridge', 'Crosschain Swap', 'Same-chain Swap', 'Send', 'Wrap', 'Unwrap', 'Call'];

type FilterValue = string | number | bigint;

/** One field of a group: its values are OR-ed, `negated` is the `not:` prefix. */
export interface FilterCondition {
  field: ListFilterField;
  negated: boolean;
  values: FilterValue[];
}

/** Conditions AND-ed together. */
export type FilterGroup = FilterCondition[];

/** What a predicate may need beyond its own value. */
interface MatchContext {
  sortBy: ListSortKey;
  /** Origin chain ids the group names (not negated): block bounds then look at origin-chain entries only. */
  originChainIds: number[] | undefined;
}

type ParseResult = { ok: true; value: FilterValue } | { ok: false; message: string };

interface FieldSpec {
  /** Range fields take one value; others may take an array (OR). */
  single?: boolean;
  /** Comma-separated lists split into several values (`apiKey`, `features`). */
  commaList?: boolean;
  parse(raw: string | number): ParseResult;
  matches(record: RequestRecord, value: FilterValue, context: MatchContext): boolean;
}

const ok = (value: FilterValue): ParseResult => ({ ok: true, value });
const fail = (message: string): ParseResult => ({ ok: false, message });

/**
 * Hex strings (EVM addresses, hashes, ids, and bare 64-hex transaction hashes of chains that
 * show them without 0x) compare case-insensitively; anything else (SVM's base58) exactly.
 */
export function sameIdentifier(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return false;
  const hex = /^(0x[0-9a-fA-F]*|[0-9a-fA-F]{64})$/;
  return hex.test(a) && hex.test(b) ? a.toLowerCase() === b.toLowerCase() : a === b;
}

function text(raw: string | number): ParseResult {
  const value = String(raw).trim();
  return value === '' ? fail('must not be empty') : ok(value);
}

function integer(raw: string | number): ParseResult {
  const value = typeof raw === 'number' ? raw : /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  return Number.isSafeInteger(value) && value >= 0 ? ok(value) : fail('must be a non-negative integer');
}

function nonNegativeNumber(raw: string | number): ParseResult {
  const value = typeof raw === 'number' ? raw : /^\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  return Number.isFinite(value) && value >= 0 ? ok(value) : fail('must be a non-negative number');
}

/** A USD amount (`"12.5"`) as micro-USD, exactly. */
function usdAmount(raw: string | number): ParseResult {
  const textValue = String(raw).trim();
  if (!/^\d+(\.\d+)?$/.test(textValue)) return fail('must be a non-negative decimal number of USD');
  return ok(parseUnits(textValue, 6));
}

function oneOf<T extends string>(values: readonly T[], options: { caseInsensitive?: boolean } = {}) {
  return (raw: string | number): ParseResult => {
    const given = String(raw).trim();
    const found = values.find((v) => (options.caseInsensitive ? v.toLowerCase() === given.toLowerCase() : v === given));
    return found === undefined ? fail(`must be one of ${values.join(', ')}`) : ok(found);
  };
}

const str = (value: FilterValue) => value as string;
const num = (value: FilterValue) => value as number;
const micros = (value: FilterValue) => value as bigint;

/** Every transaction hash a request knows: deposits, fills, refunds (mined or broadcast), failed, deposit-address transfer. */
function allTxHashes(record: RequestRecord): string[] {
  return [
    ...record.inTxs.map((tx) => tx.txHash),
    ...record.outTxs.map((tx) => tx.txHash),
    ...record.submittedTxs.map((tx) => tx.txHash),
    ...(record.failedTxHash ? [record.failedTxHash] : []),
    ...(record.depositAddress?.depositTxHash ? [record.depositAddress.depositTxHash] : []),
  ];
}

function txHashesOfType(record: RequestRecord, type: 'fill' | 'refund'): string[] {
  return [...record.outTxs, ...record.submittedTxs].filter((tx) => tx.type === type).map((tx) => tx.txHash);
}

/** Wallets of a request: user, recipient, the depositor and the deposit-address depositor. */
function wallets(record: RequestRecord): Array<string | null | undefined> {
  return [record.quote.user, record.quote.recipient, record.depositor, record.depositAddress?.depositor];
}

const anyMatches = (candidates: Array<string | null | undefined>, value: FilterValue) => candidates.some((c) => sameIdentifier(c, str(value)));

/** Seconds from the deposit's block to the fill's block; undefined until both are mined. */
export function fillTimeSecondsOf(record: RequestRecord): number | undefined {
  const deposit = record.inTxs.find((tx) => tx.type === 'deposit');
  const fill = record.outTxs.find((tx) => tx.type === 'fill' && tx.status === 'success');
  if (!deposit || !fill) return undefined;
  return Math.max(0, fill.timestamp - deposit.timestamp);
}

function timeOf(record: RequestRecord, context: MatchContext): number {
  return Math.floor((context.sortBy === 'updatedAt' ? record.updatedAt : record.createdAt) / 1000);
}

function entryBlocks(record: RequestRecord, context: MatchContext): number[] {
  const entries = [...record.inTxs, ...record.outTxs];
  const scoped = context.originChainIds ? entries.filter((tx) => context.originChainIds!.includes(tx.chainId)) : entries;
  return scoped.map((tx) => tx.block);
}

const FIELDS: Record<ListFilterField, FieldSpec> = {
  user: {
    parse: text,
    matches: (r, v) => anyMatches([r.quote.user, r.depositor, r.depositAddress?.depositor], v),
  },
  term: {
    parse: text,
    matches: (r, v) => anyMatches([r.id, ...wallets(r), r.depositAddress?.address, r.quote.orderId, ...allTxHashes(r)], v),
  },
  id: { parse: text, matches: (r, v) => sameIdentifier(r.id, str(v)) },
  orderId: { parse: text, matches: (r, v) => sameIdentifier(r.quote.orderId, str(v)) },
  depositTxHash: {
    parse: text,
    matches: (r, v) => anyMatches([...r.inTxs.filter((tx) => tx.type === 'deposit').map((tx) => tx.txHash), r.depositAddress?.depositTxHash], v),
  },
  fillTxHash: { parse: text, matches: (r, v) => anyMatches(txHashesOfType(r, 'fill'), v) },
  refundTxHash: { parse: text, matches: (r, v) => anyMatches(txHashesOfType(r, 'refund'), v) },
  hash: { parse: text, matches: (r, v) => anyMatches(allTxHashes(r), v) },
  senderOrRecipient: { parse: text, matches: (r, v) => anyMatches([r.quote.user, r.depositor, r.quote.recipient], v) },
  originChainId: { parse: integer, matches: (r, v) => r.quote.originChainId === num(v) },
  destinationChainId: { parse: integer, matches: (r, v) => r.quote.destinationChainId === num(v) },
  chainId: { parse: integer, matches: (r, v) => r.quote.originChainId === num(v) || r.quote.destinationChainId === num(v) },
  depositAddress: { parse: text, matches: (r, v) => sameIdentifier(r.depositAddress?.address, str(v)) },
  recipient: { parse: text, matches: (r, v) => sameIdentifier(r.quote.recipient, str(v)) },
  status: { parse: oneOf(REQUEST_STATUSES), matches: (r, v) => r.status === v },
  failReason: { parse: oneOf(FAIL_REASONS), matches: (r, v) => reportedFailReason(r.status, r.failReason) === v },
  refundFailReason: { parse: oneOf(REFUND_FAIL_REASONS), matches: (r, v) => reportedRefundFailReason(r.refundFailReason) === v },
  apiKey: { commaList: true, parse: text, matches: (r, v) => r.apiKey === v },
  requestType: { parse: oneOf(REQUEST_TYPES, { caseInsensitive: true }), matches: (r, v) => r.quote.requestType === v },
  referrer: { parse: text, matches: (r, v) => r.quote.referrer === v },
  currencyInChainId: { parse: integer, matches: (r, v) => r.quote.currencyIn.chainId === num(v) },
  currencyOutChainId: { parse: integer, matches: (r, v) => r.quote.currencyOut.chainId === num(v) },
  currencyInAddress: { parse: text, matches: (r, v) => sameIdentifier(r.quote.currencyIn.address, str(v)) },
  currencyOutAddress: { parse: text, matches: (r, v) => sameIdentifier(r.quote.currencyOut.address, str(v)) },
  currencyInSymbol: { parse: text, matches: (r, v) => r.quote.currencyIn.symbol.toLowerCase() === str(v).toLowerCase() },
  currencyOutSymbol: { parse: text, matches: (r, v) => r.quote.currencyOut.symbol.toLowerCase() === str(v).toLowerCase() },
  startTimestamp: { single: true, parse: integer, matches: (r, v, c) => timeOf(r, c) >= num(v) },
  endTimestamp: { single: true, parse: integer, matches: (r, v, c) => timeOf(r, c) <= num(v) },
  startBlock: { single: true, parse: integer, matches: (r, v, c) => entryBlocks(r, c).some((block) => block >= num(v)) },
  endBlock: { single: true, parse: integer, matches: (r, v, c) => entryBlocks(r, c).some((block) => block <= num(v)) },
  amountUsdMin: { single: true, parse: usdAmount, matches: (r, v) => amountUsdMicrosOf(r) >= micros(v) },
  amountUsdMax: { single: true, parse: usdAmount, matches: (r, v) => amountUsdMicrosOf(r) <= micros(v) },
  appFeesAmountUsdMin: { single: true, parse: usdAmount, matches: (r, v) => appFeesUsdMicrosOf(r) >= micros(v) },
  appFeesAmountUsdMax: { single: true, parse: usdAmount, matches: (r, v) => appFeesUsdMicrosOf(r) <= micros(v) },
  fillTimeMin: { single: true, parse: nonNegativeNumber, matches: (r, v) => (fillTimeSecondsOf(r) ?? -1) >= num(v) },
  fillTimeMax: { single: true, parse: nonNegativeNumber, matches: (r, v) => { const t = fillTimeSecondsOf(r); return t !== undefined && t <= num(v); } },
  features: { commaList: true, parse: oneOf(REQUEST_FEATURES), matches: (r, v) => r.quote.features.includes(v as (typeof REQUEST_FEATURES)[number]) },
};

export function isListFilterField(name: string): name is ListFilterField {
  return (LIST_FILTER_FIELDS as readonly string[]).includes(name);
}

export type ConditionResult = { ok: true; condition: FilterCondition } | { ok: false; message: string };

/**
 * Parses one field of a query or of a `filters` group: `key` may carry the `not:` prefix,
 * `raw` is a scalar or (in `filters`) an array of scalars, OR-ed.
 */
export function parseFilterCondition(key: string, raw: unknown, fields: readonly ListFilterField[] = LIST_FILTER_FIELDS): ConditionResult {
  const negated = key.startsWith('not:');
  const field = negated ? key.slice(4) : key;
  if (!isListFilterField(field) || !fields.includes(field)) return { ok: false, message: `${key}: unknown filter field` };
  const spec = FIELDS[field];
  const raws = Array.isArray(raw) ? raw : [raw];
  if (raws.length === 0) return { ok: false, message: `${key}: an array value must not be empty` };
  if (spec.single && raws.length > 1) return { ok: false, message: `${key}: takes a single value` };
  const values: FilterValue[] = [];
  for (const item of raws) {
    if (typeof item !== 'string' && typeof item !== 'number') return { ok: false, message: `${key}: values must be strings or numbers` };
    const parts = spec.commaList && typeof item === 'string' ? item.split(',') : [item];
    for (const part of parts) {
      const parsed = spec.parse(part);
      if (!parsed.ok) return { ok: false, message: `${key}: ${parsed.message} (got ${JSON.stringify(part)})` };
      values.push(parsed.value);
    }
  }
  return { ok: true, condition: { field, negated, values } };
}

/** AND of a group's conditions. `chainId` gives way to originChainId / destinationChainId in the same group (SPEC §4.3). */
export function matchesGroup(record: RequestRecord, group: FilterGroup, sortBy: ListSortKey): boolean {
  const directional = group.some((c) => c.field === 'originChainId' || c.field === 'destinationChainId');
  const origin = group.find((c) => c.field === 'originChainId' && !c.negated);
  const context: MatchContext = { sortBy, originChainIds: origin ? origin.values.map(num) : undefined };
  return group.every((condition) => {
    if (condition.field === 'chainId' && directional) return true;
    const spec = FIELDS[condition.field];
    const hit = condition.values.some((value) => spec.matches(record, value, context));
    return condition.negated ? !hit : hit;
  });
}

/** A listing filter: the query's own parameters (one group) AND any of the `filters` groups. */
export interface ListFilter {
  base: FilterGroup;
  /** `filters` groups, OR-ed; undefined when the query has no `filters`. */
  anyOf: FilterGroup[] | undefined;
  sortBy: ListSortKey;
}

export function matchesListFilter(record: RequestRecord, filter: ListFilter): boolean {
  if (!matchesGroup(record, filter.base, filter.sortBy)) return false;
  return filter.anyOf === undefined || filter.anyOf.some((group) => matchesGroup(record, group, filter.sortBy));
}
