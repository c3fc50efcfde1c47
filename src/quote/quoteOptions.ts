import { z } from 'zod';
import { STABLECOIN } from '../../fixtures/tokens';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { AppFeeEntry } from '../domain/quoteOptions/appFees';
import type { Currency } from '../domain/chain/currency';
import { DEFAULT_SPONSORED_COMPONENTS, type SponsorComponent } from '../domain/quoteOptions/feeSponsorship';
import { DEFAULT_GAS_TOP_UP_USD_MICROS, gasTopUpAmount, usdMicrosIn } from '../domain/quoteOptions/gasTopUp';
import type { QuoteOptionsInput } from '../domain/quoteOptions/priceWithOptions';
import { parseBasisPoints } from '../domain/quote/slippageTolerance';
import { uint256String } from '../domain/money/uint256String';
import { InvalidAddressError } from '../errors/quoteErrors';
import { InvalidRequestBodyError } from '../errors/requestErrors';
import { parseWithSchema } from '../errors/parseWithSchema';

const IntegerString = uint256String('an integer string');

/**
 * SPEC §1.6 quote options, under the service's public parameter names (the official SDK's
 * `/quote/v2` body): `appFees[{ recipient, fee }]`, `subsidizeFees`, `sponsoredFeeComponents`,
 * `maxSubsidizationAmount`, `subsidizeRent`, `topupGas`, `topupGasAmount`, `fixedRate`,
 * `includeProtocolData`. Read from the same body as the core fields (that schema passes them through).
 */
export const QuoteOptionsSchema = z.object({
  appFees: z.array(z.object({ recipient: z.string().min(1), fee: z.string() })).max(20).optional(),
  subsidizeFees: z.boolean().optional(),
  sponsoredFeeComponents: z.array(z.enum(['execution', 'swap', 'relay', 'platform', 'app', 'rent'])).optional(),
  maxSubsidizationAmount: IntegerString.optional(),
  subsidizeRent: z.boolean().optional(),
  topupGas: z.boolean().optional(),
  topupGasAmount: IntegerString.optional(),
  fixedRate: z.string().optional(),
  includeProtocolData: z.boolean().optional(),
});

export interface ParsedQuoteOptions {
  pricing: QuoteOptionsInput;
  /** The sponsorship cap as requested, micro-USD (reported in `feeSponsorship.quoted`). */
  capUsdMicros: bigint | null;
  gasTopUp: { amount: bigint; currency: Currency } | null;
  includeProtocolData: boolean;
}

/** The stablecoin app fees are collected in (SPEC §1.6), on the given chain. */
export function stablecoinOn(chain: ChainAdapter): Currency {
  const described = chain.describe();
  // a chain whose own currency is the stablecoin (the exchange's USDC collateral) has it as its native
  const stablecoin = [...described.erc20Currencies, described.nativeCurrency].find((currency) => currency.symbol === STABLECOIN.symbol);
  if (!stablecoin) throw new Error(`chain ${chain.chainId} has no ${STABLECOIN.symbol}`);
  return stablecoin;
}

/**
 * Validates the options against the chains and turns them into the pricing input: app fee
 * recipients are origin-chain addresses (INVALID_ADDRESS otherwise), `fee` and `fixedRate` are
 * integer bps strings 0–10000, sponsorship and top-up amounts need their switches. A top-up is
 * only delivered when the output is not already the destination's gas currency (as the service).
 */
export function parseQuoteOptions(body: unknown, ctx: { origin: ChainAdapter; destination: ChainAdapter; currencyIn: Currency; currencyOut: Currency }): ParsedQuoteOptions {
  const raw = parseWithSchema(QuoteOptionsSchema, body);
  const appFees: AppFeeEntry[] = (raw.appFees ?? []).map((fee, index) => {
    if (!ctx.origin.isValidAddress(fee.recipient)) {
      throw new InvalidAddressError(`appFees[${index}].recipient ${fee.recipient} is not a valid address on chain ${ctx.origin.chainId}`);
    }
    const bps = parseBasisPoints(fee.fee);
    if (bps === null) throw new InvalidRequestBodyError(`Invalid request: appFees[${index}].fee must be an integer string of basis points between 0 and 10000`);
    return { recipient: ctx.origin.normalizeAddress(fee.recipient), bps };
  });

  if (!raw.subsidizeFees && (raw.sponsoredFeeComponents !== undefined || raw.maxSubsidizationAmount !== undefined || raw.subsidizeRent)) {
    throw new InvalidRequestBodyError('Invalid request: sponsoredFeeComponents, maxSubsidizationAmount and subsidizeRent require subsidizeFees: true');
  }
  if (!raw.topupGas && raw.topupGasAmount !== undefined) {
    throw new InvalidRequestBodyError('Invalid request: topupGasAmount requires topupGas: true');
  }
  let fixedRateSpreadBps: bigint | null = null;
  if (raw.fixedRate !== undefined) {
    fixedRateSpreadBps = parseBasisPoints(raw.fixedRate);
    if (fixedRateSpreadBps === null) throw new InvalidRequestBodyError('Invalid request: fixedRate must be an integer string of basis points between 0 and 10000');
  }

  const capUsdMicros = raw.maxSubsidizationAmount === undefined ? null : BigInt(raw.maxSubsidizationAmount);
  let sponsorship: QuoteOptionsInput['sponsorship'] = null;
  if (raw.subsidizeFees) {
    const named = raw.sponsoredFeeComponents?.map((c): SponsorComponent => (c === 'relay' ? 'platform' : c)) ?? [...DEFAULT_SPONSORED_COMPONENTS];
    const selected = raw.subsidizeRent && !named.includes('rent') ? [...named, 'rent' as const] : named;
    sponsorship = { selected, cap: capUsdMicros === null ? null : usdMicrosIn(capUsdMicros, ctx.currencyIn) };
  }

  const destinationNative = ctx.destination.nativeCurrency();
  const topUpWanted = raw.topupGas === true && !ctx.currencyOut.isNative;
  const topUpAmount = topUpWanted ? gasTopUpAmount(raw.topupGasAmount === undefined ? DEFAULT_GAS_TOP_UP_USD_MICROS : BigInt(raw.topupGasAmount), destinationNative) : 0n;
  return {
    pricing: { appFees, fixedRateSpreadBps, gasTopUp: topUpAmount, sponsorship },
    capUsdMicros: raw.subsidizeFees ? capUsdMicros : null,
    gasTopUp: topUpAmount > 0n ? { amount: topUpAmount, currency: destinationNative } : null,
    includeProtocolData: raw.includeProtocolData === true,
  };
}
