import { erc20Abi, zeroAddress, type Address, type Hex } from 'viem';
import { encodeCall } from './encodeCall';
import { constantProductPoolArtifact, serviceReceiverArtifact, wrappedNativeArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { FillExecution, SolverPayment } from '../../domain/fill/solverPayment';

interface ReceiverCall {
  to: Address;
  value: bigint;
  data: Hex;
}

/** The receiver calls that carry out a route: nothing (transfer), a wrap, an unwrap or a pool swap. */
function routeCalls(receiver: Address, payment: SolverPayment, execution: FillExecution): ReceiverCall[] {
  const { action } = execution;
  switch (action.kind) {
    case 'transfer':
      return [];
    case 'wrap':
      return [{ to: action.wrappedNative, value: execution.solverAmount, data: encodeCall({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }) }];
    case 'unwrap':
      return [unwrapAll(receiver, action.wrappedNative)];
    case 'swap': {
      const swap = execution.exactOutput
        ? encodeCall({
            abi: constantProductPoolArtifact.abi,
            functionName: 'swapExactOutput',
            args: [action.tokenIn, payment.amount, execution.solverAmount, receiver],
          })
        : encodeCall({
            abi: constantProductPoolArtifact.abi,
            functionName: 'swapExactInput',
            args: [action.tokenIn, execution.solverAmount, execution.minimumAmountOut, receiver],
          });
      return [
        { to: action.tokenIn, value: 0n, data: encodeCall({ abi: erc20Abi, functionName: 'approve', args: [action.pool, execution.solverAmount] }) },
        { to: action.pool, value: 0n, data: swap },
        ...(action.unwrapOutput ? [unwrapAll(receiver, action.tokenOut)] : []),
      ];
    }
  }
}

function unwrapAll(receiver: Address, wrapped: Address): ReceiverCall {
  return { to: receiver, value: 0n, data: encodeCall({ abi: serviceReceiverArtifact.abi, functionName: 'unwrapAll', args: [wrapped] }) };
}

/**
 * `ServiceReceiver.fillWithCalls` for a payment with an execution: the solver's inventory goes
 * in, the route's calls and then the request's own calls run from the receiver, and what is
 * left of the output currency goes to the recipient. Without attached calls the whole fill
 * reverts below the quote's minimum; with calls (which spend the output) the floor is the
 * swap's own.
 */
export function encodeFillExecution(receiver: Address, payment: SolverPayment & { execution: FillExecution }): { data: Hex; value: bigint } {
  const { execution } = payment;
  const nativeIn = execution.solverCurrency.isNative;
  const gasTopUp = execution.gasTopUp ?? 0n;
  const topUpCalls = gasTopUp > 0n ? [{ to: payment.recipient as Address, value: gasTopUp, data: '0x' as Hex }] : [];
  const calls = [...routeCalls(receiver, payment, execution), ...execution.calls, ...topUpCalls];
  const data = encodeCall({
    abi: serviceReceiverArtifact.abi,
    functionName: 'fillWithCalls',
    args: [
      {
        id: payment.requestId,
        tokenIn: nativeIn ? zeroAddress : execution.solverCurrency.address,
        amountIn: nativeIn ? 0n : execution.solverAmount,
        tokenOut: payment.currency.isNative ? zeroAddress : payment.currency.address,
        recipient: payment.recipient as Address,
        minimumAmountOut: execution.calls.length > 0 ? 0n : execution.minimumAmountOut,
      },
      calls,
    ],
  });
  return { data, value: (nativeIn ? execution.solverAmount : 0n) + gasTopUp };
}
