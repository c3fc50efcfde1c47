import type { Address, Hex } from 'viem';
import type { ChainAdapter } from '../chains/ChainAdapter';
import type { Currency } from '../domain/chain/currency';
import type { DestinationCall } from '../domain/request/requestRecord';
import { formatAmount } from '../domain/money/formatAmount';
import { DestinationTxFailedError, SolverCapacityExceededError } from '../errors/quoteErrors';
import { fillPaymentFor } from '../domain/fill/fillPaymentFor';
import type { PlannedQuoteRoute } from './planQuoteRoute';
import { isSolverBalanceShortfall } from '../domain/fill/fillFailReason';

/** A request id no quote ever derives, so the receiver's once-only guard never trips in simulation. */
const SIMULATION_REQUEST_ID: Hex = `0x${'51'.repeat(32)}`;

/**
 * SPEC §7.1 DESTINATION_TX_FAILED: simulates the very fill the solver would send (eth_estimateGas
 * from the solver on the destination) and rejects the quote on a genuine revert. A recipient
 * the token's blocklist refuses gets the "cannot receive this token" message; any other revert's
 * message carries the decoded error and its §7.3 label (e.g. `MintNotActive() (MINT_NOT_ACTIVE)`). Transport
 * failures are not reverts and propagate as they are. Returns the fill's measured gas.
 */
export async function simulateQuotedFill(params: {
  destination: ChainAdapter;
  planned: PlannedQuoteRoute;
  currencyOut: Currency;
  recipient: Address;
  calls: DestinationCall[];
  exactOutput: boolean;
}): Promise<{ gasUnits: bigint }> {
  const { planned } = params;
  const simulation = await params.destination.solverWallet.simulateFill(
    fillPaymentFor({
      requestId: SIMULATION_REQUEST_ID,
      recipient: params.recipient,
      currencyOut: params.currencyOut,
      route: planned.route,
      calls: params.calls,
      amountOut: planned.amounts.amountOut,
      destinationAmountIn: planned.amounts.destinationAmountIn,
      minimumAmountOut: planned.amounts.minimumAmountOut,
      exactOutput: params.exactOutput,
    }),
  );
  if (simulation.ok) return { gasUnits: simulation.gasUnits };
  if (isSolverBalanceShortfall(simulation.failure.errorName)) {
    throw new SolverCapacityExceededError(
      `the solver cannot fill ${formatAmount(planned.amounts.amountOut, params.currencyOut)} on chain ${params.destination.chainId}: ${simulation.failure.message}; quote a smaller amount`,
    );
  }
  if (simulation.blockedAccount !== undefined && simulation.blockedAccount.toLowerCase() === params.recipient.toLowerCase()) {
    throw new DestinationTxFailedError(
      `recipient ${params.recipient} cannot receive this token (blocked by the token contract); use another recipient`,
    );
  }
  // why it would fail, and the §7.3 label a fill failing so would get
  const label = simulation.failure.failReason;
  throw new DestinationTxFailedError(
    `the destination transaction reverted in simulation on chain ${params.destination.chainId}: ${simulation.failure.message}${label ? ` (${label})` : ''}`,
  );
}
