import type { Address as EvmAddressType } from 'viem';
import { STABLECOIN, TOKEN_LOGO_URI } from '../../../fixtures/tokens';
import { priceUsdMicrosOf } from '../../../fixtures/prices';
import type { Currency } from '../../domain/chain/currency';
import { USDC_ASSET } from '../../nodes/lvm';

/** SPEC §4.6: the exchange's one currency as the service names it, `0`: USDC collateral (6 decimals). */
export const LVM_CURRENCY_ADDRESS = '0';

/**
 * The exchange chain's currency: USDC, at address `0`, native (the exchange charges its fees in
 * it). `Currency.address` is typed for EVM's hex; here it holds `0` (the type is a brand only).
 */
export function lvmCollateralCurrency(chainId: number): Currency {
  return {
    chainId,
    address: LVM_CURRENCY_ADDRESS as EvmAddressType,
    symbol: STABLECOIN.symbol,
    name: STABLECOIN.name,
    decimals: USDC_ASSET.decimals,
    isNative: true,
    logoURI: `${TOKEN_LOGO_URI}${STABLECOIN.symbol.toLowerCase()}.png`,
    verified: true,
    priceUsdMicros: priceUsdMicrosOf(STABLECOIN.symbol),
  };
}
