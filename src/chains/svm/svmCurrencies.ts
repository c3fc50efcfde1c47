import type { Address as EvmAddressType } from 'viem';
import { STABLECOIN, TOKEN_LOGO_URI } from '../../../fixtures/tokens';
import { priceUsdMicrosOf } from '../../../fixtures/prices';
import type { Currency } from '../../domain/chain/currency';
import { NATIVE_MINT, SYSTEM_PROGRAM, SVM_MARKET_TOKENS, svmMarketMint } from '../../nodes/svm';

/** The SVM chain's currencies (SPEC §4.6): native SOL at the all-ones system address (9 decimals), the stablecoin (6), wrapped SOL (9). */
export interface SvmCurrencies {
  native: Currency;
  stablecoin: Currency;
  wrappedNative: Currency;
}

export const SOL_DECIMALS = 9;

/**
 * `Currency.address` is typed for EVM's hex addresses; on the SVM chain it holds a base58
 * address, compared case-sensitively by this adapter (the type is a brand only).
 */
function svmCurrencyAddress(address: string): EvmAddressType {
  return address as EvmAddressType;
}

function svmCurrency(chainId: number, address: string, symbol: string, name: string, decimals: number, isNative: boolean): Currency {
  return {
    chainId,
    address: svmCurrencyAddress(address),
    symbol,
    name,
    decimals,
    isNative,
    logoURI: `${TOKEN_LOGO_URI}${symbol.toLowerCase()}.png`,
    verified: true,
    priceUsdMicros: priceUsdMicrosOf(symbol),
  };
}

export function svmCurrencies(chainId: number, stablecoinMint: string): SvmCurrencies {
  return {
    native: svmCurrency(chainId, SYSTEM_PROGRAM, 'SOL', 'Solana', SOL_DECIMALS, true),
    stablecoin: svmCurrency(chainId, stablecoinMint, STABLECOIN.symbol, STABLECOIN.name, STABLECOIN.decimals, false),
    wrappedNative: svmCurrency(chainId, NATIVE_MINT, 'WSOL', 'Wrapped SOL', SOL_DECIMALS, false),
  };
}

/** The tokens of the aggregator's market (`svmAggregatorMarket`): deposited through an origin swap. */
export function svmMarketCurrencies(chainId: number): Currency[] {
  return SVM_MARKET_TOKENS.map((token) => svmCurrency(chainId, svmMarketMint(token.symbol), token.symbol, token.name, token.decimals, false));
}
