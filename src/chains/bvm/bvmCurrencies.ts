import type { Address as EvmAddressType } from 'viem';
import { TOKEN_LOGO_URI } from '../../../fixtures/tokens';
import { priceUsdMicrosOf } from '../../../fixtures/prices';
import type { Currency } from '../../domain/chain/currency';

/** The identifier the service gives native BTC (its docs' "Native BTC identifier"), kept on the regtest chain so clients need no special case. */
export const BTC_CURRENCY_ADDRESS = 'bc1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqmql8k8';

export const BTC_DECIMALS = 8;

/**
 * The BVM chain's one currency: native BTC (8 decimals, amounts in satoshis). `Currency.address`
 * is typed for EVM's hex addresses; here it holds the BTC identifier (the type is a brand only).
 */
export function bvmNativeCurrency(chainId: number): Currency {
  return {
    chainId,
    address: BTC_CURRENCY_ADDRESS as EvmAddressType,
    symbol: 'BTC',
    name: 'Bitcoin',
    decimals: BTC_DECIMALS,
    isNative: true,
    logoURI: `${TOKEN_LOGO_URI}btc.png`,
    verified: true,
    priceUsdMicros: priceUsdMicrosOf('BTC'),
  };
}
