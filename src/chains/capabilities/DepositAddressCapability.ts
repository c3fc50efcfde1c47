import type { Hex } from 'viem';
import type { DepositAddressPayment } from '../../domain/chain/observedDeposit';
import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { DepositStepParams } from '../ChainAdapter';

/**
 * A request's own deposit address (SPEC §1.6, §4.1 `useDepositAddress`), on the chains that have
 * them (EVM: a forwarder the solver sweeps; BVM: a key the solver holds, so nothing to sweep).
 */
export interface DepositAddressCapability {
  /**
   * Registers the request's own deposit address (watched from now on, across restarts) and builds
   * the plain transfer step that pays into it.
   */
  open(params: DepositStepParams): Promise<{ address: string; steps: QuoteStep[] }>;
  /** Moves a paid deposit address's balance into the depository, tagged with the request id; absent where the address is the solver's own key. */
  sweep?(requestId: Hex, payment: DepositAddressPayment): Promise<{ txHash: Hex; status: 'success' | 'failure' }>;
  /**
   * SPEC §2.3 `supersededByRequestId`: a new quote for the same user and route as an earlier,
   * unpaid deposit-address request from this chain regenerates it (the same deposit address, now
   * the new request's). True on the BVM chain.
   */
  readonly regeneratesDepositAddresses: boolean;
}
