import { z } from 'zod';
import { currencyObject } from '../money/amountObject';
import type { Currency } from './currency';
import type { VmType } from './chainDescription';

/** A currency with the kind of chain it lives on: one row of the currencies look-up. */
export interface ListedCurrency {
  currency: Currency;
  vmType: VmType;
}

const ChainIdSchema = z.number().int().positive().max(2 ** 53 - 1);
const TokenRefSchema = z.string().max(200).regex(/^[0-9]+:.+$/, 'expected "chainId:address"');

/**
 * The body of `POST /currencies/v1` and `/currencies/v2`, as the service's published API types
 * name it. `useExternalSearch` is accepted and has no effect offline.
 */
export const CurrencySearchSchema = z.object({
  defaultList: z.boolean().optional(),
  chainIds: z.array(ChainIdSchema).max(100).optional(),
  term: z.string().max(200).optional(),
  address: z.string().max(200).optional(),
  currencyId: z.string().max(100).optional(),
  tokens: z.array(TokenRefSchema).max(100).optional(),
  verified: z.boolean().optional(),
  limit: z.number().int().min(1).max(100).optional(),
  includeAllChains: z.boolean().optional(),
  useExternalSearch: z.boolean().optional(),
  depositAddressOnly: z.boolean().optional(),
});
export type CurrencySearch = z.infer<typeof CurrencySearchSchema>;

/** The default page size of both versions (the published v2 default). */
export const DEFAULT_CURRENCY_LIMIT = 20;

/** The id of a currency's group across chains (`GET /chains` `currency.id`): its symbol, lower case. */
export function currencyGroupId(currency: Pick<Currency, 'symbol'>): string {
  return currency.symbol.toLowerCase();
}

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const ADDRESS_TERM = /^0x[0-9a-fA-F]{40}$/;

function matchesTerm(currency: Currency, term: string): boolean {
  if (ADDRESS_TERM.test(term)) return sameText(currency.address, term);
  const needle = term.toLowerCase();
  return currency.symbol.toLowerCase().includes(needle) || currency.name.toLowerCase().includes(needle);
}

/** Filters on one currency, chains aside (`includeAllChains` widens only the chain filter). */
function matchesAllButChain(currency: Currency, search: CurrencySearch): boolean {
  if (search.address !== undefined && !sameText(currency.address, search.address)) return false;
  if (search.currencyId !== undefined && currencyGroupId(currency) !== search.currencyId.toLowerCase()) return false;
  if (search.tokens !== undefined && !search.tokens.some((ref) => sameText(ref, `${currency.chainId}:${currency.address}`))) return false;
  if (search.verified === true && !currency.verified) return false;
  if (search.verified === false && currency.verified) return false;
  if (search.term !== undefined && search.term.trim() !== '' && !matchesTerm(currency, search.term.trim())) return false;
  return true;
}

/**
 * The currencies a search selects, in the order given (chains in the simulator's order, native
 * first), with exact symbol matches of `term` first. `includeAllChains` with `chainIds` and
 * `address`: the groups found on those chains, on every chain. Every currency here supports
 * deposit-address bridging, so `depositAddressOnly` removes none; `defaultList` is every currency.
 */
export function searchCurrencies(all: readonly ListedCurrency[], search: CurrencySearch): ListedCurrency[] {
  const onChains = (entry: ListedCurrency) => search.chainIds === undefined || search.chainIds.includes(entry.currency.chainId);
  let found = all.filter((entry) => onChains(entry) && matchesAllButChain(entry.currency, search));
  if (search.includeAllChains && search.chainIds !== undefined && search.address !== undefined) {
    const groups = new Set(found.map((entry) => currencyGroupId(entry.currency)));
    found = all.filter((entry) => groups.has(currencyGroupId(entry.currency)));
  }
  const term = search.term?.trim().toLowerCase();
  if (!term) return found;
  const exact = (entry: ListedCurrency) => entry.currency.symbol.toLowerCase() === term;
  return [...found.filter(exact), ...found.filter((entry) => !exact(entry))];
}

/** Currencies grouped across chains (v1), groups in order of their first member. */
export function groupCurrencies(found: readonly ListedCurrency[]): ListedCurrency[][] {
  const groups = new Map<string, ListedCurrency[]>();
  for (const entry of found) {
    const id = currencyGroupId(entry.currency);
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id)!.push(entry);
  }
  return [...groups.values()];
}

/** One currency as `POST /currencies/v2` answers it. */
export function currencyEntryView({ currency, vmType }: ListedCurrency) {
  const { metadata, ...fields } = currencyObject(currency);
  return { ...fields, vmType, metadata };
}

/** One currency as `POST /currencies/v1` answers it: the v2 entry with its group id. */
export function groupedCurrencyEntryView(entry: ListedCurrency) {
  return { groupID: currencyGroupId(entry.currency), ...currencyEntryView(entry) };
}
