/**
 * The exchange's assets and route types (SPEC §4.6 `assetIndex`, `fromRouteType`, `toRouteType`),
 * numbered as the perpetuals exchange numbers them: USDC is asset 3 (6 decimals, the collateral),
 * ETH asset 1 (spot only); route 0 is the perpetuals account (USDC there is the collateral), route
 * 1 the spot account.
 */
export const ROUTE_PERP = 0;
export const ROUTE_SPOT = 1;
export const ROUTE_TYPES: readonly number[] = [ROUTE_PERP, ROUTE_SPOT];

export interface LvmAsset {
  index: number;
  symbol: string;
  decimals: number;
  /** Routes the asset can sit in: USDC in both, other assets in spot only. */
  routes: readonly number[];
}

export const USDC_ASSET: LvmAsset = { index: 3, symbol: 'USDC', decimals: 6, routes: [ROUTE_PERP, ROUTE_SPOT] };
export const ETH_ASSET: LvmAsset = { index: 1, symbol: 'ETH', decimals: 18, routes: [ROUTE_SPOT] };
export const LVM_ASSETS: readonly LvmAsset[] = [ETH_ASSET, USDC_ASSET];

export function lvmAsset(index: number): LvmAsset | undefined {
  return LVM_ASSETS.find((asset) => asset.index === index);
}

/** What the exchange charges a transfer (`usdcFee` at least this), in USDC's smallest unit: 0.01 USDC. */
export const LVM_TRANSFER_FEE = 10_000n;

/** Account indexes: master accounts count up from 0, sub-accounts count down from 2^48 − 2. */
export const FIRST_SUB_ACCOUNT_INDEX = 2 ** 48 - 2;
