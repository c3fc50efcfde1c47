import type { Hex } from 'viem';
import type { Currency } from '../chain/currency';
import type { DestinationCall } from '../request/requestRecord';
import type { DestinationAction } from '../quote/planRoute';

/** What the solver pays on a chain to fill or refund a request. */
export interface SolverPayment {
  requestId: Hex;
  currency: Currency;
  recipient: string;
  amount: bigint;
  /** A fill that runs a route or calls (absent: pay `amount` of `currency` directly). */
  execution?: FillExecution;
}

/** How a fill turns the solver's inventory into the payment (see `planRoute`). */
export interface FillExecution {
  action: DestinationAction;
  /** What the solver spends, in `solverCurrency`. */
  solverCurrency: Currency;
  solverAmount: bigint;
  /** EXACT_OUTPUT: the pool sells exactly `amount` for at most `solverAmount`. */
  exactOutput: boolean;
  /** The quote's floor: the swap (or, without calls, the whole fill) reverts below it. */
  minimumAmountOut: bigint;
  /** Destination calls attached to the quote, run after the route. */
  calls: DestinationCall[];
  /** SPEC §1.6 gas top-up: destination native the fill also sends to the recipient. */
  gasTopUp?: bigint;
  /** Gas limit measured by the solver's simulation (a default when absent). */
  gasLimit?: bigint;
}
