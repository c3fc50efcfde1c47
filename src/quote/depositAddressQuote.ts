import type { ChainAdapter, DepositStepParams } from '../chains/ChainAdapter';
import { requireCapability } from '../chains/capabilities/requireCapability';
import type { NewRequestInit, RequestFeature } from '../domain/request/requestRecord';
import { InvalidAddressError } from '../errors/quoteErrors';
import { InvalidRequestBodyError } from '../errors/requestErrors';
import type { QuoteRequest } from './quoteRequestSchema';
import type { QuoteStep } from '../domain/quote/quoteStep';

/** The quote's choice of how the user pays (SPEC §4.1 `useDepositAddress`, `strict`, `refundTo`). */
export interface DepositChoice {
  depositAddress: { type: 'open' | 'strict'; recoveryAddress: string | null } | null;
  /** SPEC §2.3 `refundTo`, normalised; refunds of the request go there. */
  refundTo: string | null;
  /** SPEC §1.6 gasless swaps (`usePermit`): the user signs the deposit, the relayer submits it. */
  bySignature: boolean;
  features: RequestFeature[];
}

/** An optional origin-chain address field: normalised, or INVALID_ADDRESS (SPEC §7.1). */
function originAddressOf(origin: ChainAdapter, field: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  if (!origin.isValidAddress(value)) throw new InvalidAddressError(`${field} ${value} is not a valid address on chain ${origin.chainId}`);
  return origin.normalizeAddress(value);
}

/**
 * Validates the deposit-address options of a quote request. `refundTo` and `recoveryAddress` are
 * origin-chain addresses; `strict` needs `useDepositAddress` and `refundTo`; an open deposit
 * address takes any amount, so it cannot promise an EXACT_OUTPUT (the service's rule).
 */
export function depositChoiceOf(request: QuoteRequest, origin: ChainAdapter): DepositChoice {
  const refundTo = originAddressOf(origin, 'refundTo', request.refundTo);
  const recoveryAddress = originAddressOf(origin, 'recoveryAddress', request.recoveryAddress);
  if (!request.useDepositAddress) {
    if (request.strict) throw new InvalidRequestBodyError('strict applies only with useDepositAddress: true');
    if (recoveryAddress !== null) throw new InvalidRequestBodyError('recoveryAddress applies only with useDepositAddress: true');
    // a currency that takes no signatures (native, wrapped native) is deposited the usual way
    const currencyIn = origin.findCurrency(request.originCurrency);
    const bySignature = request.usePermit === true && currencyIn !== undefined && origin.gaslessRelay?.canDepositBySignature(currencyIn) === true;
    return { depositAddress: null, refundTo, bySignature, features: bySignature ? ['gasless_swap'] : [] };
  }
  if (request.usePermit) throw new InvalidRequestBodyError('usePermit and useDepositAddress exclude each other: a deposit address is paid by a transfer');
  const type = request.strict ? 'strict' : 'open';
  if (type === 'strict' && refundTo === null) throw new InvalidRequestBodyError('refundTo is required when strict is true');
  if (type === 'open' && request.tradeType === 'EXACT_OUTPUT') {
    throw new InvalidRequestBodyError('EXACT_OUTPUT with useDepositAddress needs strict: true (an open deposit address accepts any amount)');
  }
  return { depositAddress: { type, recoveryAddress }, refundTo, bySignature: false, features: ['deposit_address'] };
}

/**
 * The quote's steps and the request fields that go with the choice: the depository steps, the
 * signature step of a deposit by signature (`usePermit`), or
 * the request's own deposit address (registered and watched from now on) with a plain transfer
 * step into it (SPEC §2.2 step `depositAddress`, §2.3 `depositAddress`).
 */
export async function depositStepsFor(
  origin: ChainAdapter,
  choice: DepositChoice,
  params: DepositStepParams,
): Promise<{ steps: QuoteStep[]; init: NewRequestInit }> {
  if (choice.bySignature && origin.gaslessRelay) return { steps: await origin.gaslessRelay.buildSignedDepositSteps(params), init: { refundTo: choice.refundTo } };
  if (!choice.depositAddress) {
    const steps = await origin.buildDepositSteps(params);
    // a chain whose every deposit pays the request's own address (BVM) makes it an open deposit-address request
    const own = steps.find((step) => step.depositAddress)?.depositAddress;
    const depositAddress = own ? { address: own, type: 'open' as const, depositor: null, depositTxHash: null, recoveryAddress: null } : undefined;
    return { steps, init: { refundTo: choice.refundTo, ...(depositAddress ? { depositAddress } : {}) } };
  }
  const { address, steps } = await requireCapability(origin, 'depositAddresses', 'useDepositAddress').open(params);
  return {
    steps,
    init: {
      refundTo: choice.refundTo,
      depositAddress: { address, type: choice.depositAddress.type, depositor: null, depositTxHash: null, recoveryAddress: choice.depositAddress.recoveryAddress },
    },
  };
}
