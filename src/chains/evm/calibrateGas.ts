import { encodeFunctionData, maxUint256, zeroAddress, type Address, type PublicClient } from 'viem';
import type { Currency } from '../../domain/chain/currency';
import { encodeFillExecution } from './encodeFillExecution';
import { depositoryArtifact, serviceReceiverArtifact, stablecoinArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { DestinationAction } from '../../domain/quote/planRoute';
import type { SimulatorContracts } from './deploySimulatorContracts';
import type { FillExecution, SolverPayment } from '../../domain/fill/solverPayment';

/** Gas each simulator operation takes on this chain, measured with eth_estimateGas at start. */
export interface GasCalibration {
  depositNative: bigint;
  depositErc20: bigint;
  approve: bigint;
  fillNative: bigint;
  fillErc20: bigint;
  refundNative: bigint;
  refundErc20: bigint;
  /** A pool swap fill (stablecoin → wrapped native → native, the longest path). */
  fillSwap: bigint;
  fillWrap: bigint;
  fillUnwrap: bigint;
}

const PROBE_ID = `0x${'00'.repeat(31)}01` as const;
/** The fields of a currency a probe fill's encoding does not read. */
const PROBE_CURRENCY: Omit<Currency, 'address' | 'isNative'> = { chainId: 0, symbol: '', name: '', decimals: 18, logoURI: '', verified: true, priceUsdMicros: 0n };

/**
 * Estimates each operation from the solver (who holds both currencies and has approved the
 * depository and receiver), paying a fresh recipient so cold-storage costs are included.
 */
export async function calibrateGas(params: {
  client: PublicClient;
  contracts: SimulatorContracts;
  solver: Address;
  freshRecipient: Address;
}): Promise<GasCalibration> {
  const { client, contracts, solver, freshRecipient } = params;
  const estimate = (to: Address, data: `0x${string}`, value = 0n) => client.estimateGas({ account: solver, to, data, value });
  const execution = (payment: Omit<SolverPayment, 'requestId' | 'recipient'> & { execution: FillExecution }) => {
    const { data, value } = encodeFillExecution(contracts.serviceReceiver, { ...payment, requestId: PROBE_ID, recipient: freshRecipient });
    return estimate(contracts.serviceReceiver, data, value);
  };
  const probeCurrency = (address: Address, isNative: boolean) => ({ ...PROBE_CURRENCY, address, isNative });
  const stable = probeCurrency(contracts.stablecoin, false);
  const wrapped = probeCurrency(contracts.wrappedNative, false);
  const native = probeCurrency(zeroAddress, true);
  const probeExecution = { exactOutput: false, minimumAmountOut: 1n, calls: [] };
  const [fillSwap, fillWrap, fillUnwrap] = await Promise.all([
    execution({
      currency: native,
      amount: 1n,
      execution: {
        ...probeExecution,
        solverCurrency: stable,
        solverAmount: 1_000_000n,
        action: { kind: 'swap', pool: contracts.pool, feeBps: 30n, tokenIn: contracts.stablecoin, tokenOut: contracts.wrappedNative, unwrapOutput: true },
      },
    }),
    execution({ currency: wrapped, amount: 1n, execution: { ...probeExecution, solverCurrency: native, solverAmount: 1n, action: { kind: 'wrap', wrappedNative: contracts.wrappedNative } } }),
    execution({ currency: native, amount: 1n, execution: { ...probeExecution, solverCurrency: wrapped, solverAmount: 1n, action: { kind: 'unwrap', wrappedNative: contracts.wrappedNative } } }),
  ]);
  const [depositNative, depositErc20, approve, fillNative, fillErc20, refundNative, refundErc20] = await Promise.all([
    estimate(contracts.depository, encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositNative', args: [solver, PROBE_ID] }), 1n),
    estimate(contracts.depository, encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositErc20', args: [solver, contracts.stablecoin, 1n, PROBE_ID] })),
    estimate(contracts.stablecoin, encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'approve', args: [freshRecipient, maxUint256] })),
    estimate(contracts.serviceReceiver, encodeFunctionData({ abi: serviceReceiverArtifact.abi, functionName: 'fillNative', args: [PROBE_ID, freshRecipient] }), 1n),
    estimate(contracts.serviceReceiver, encodeFunctionData({ abi: serviceReceiverArtifact.abi, functionName: 'fillErc20', args: [PROBE_ID, contracts.stablecoin, freshRecipient, 1n] })),
    // the depository holds no funds yet: estimate refunds as the receiver-style transfer they mirror
    estimate(freshRecipient, '0x', 1n),
    estimate(contracts.stablecoin, encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'transfer', args: [freshRecipient, 1n] })),
  ]);
  return {
    depositNative,
    depositErc20,
    approve,
    fillNative,
    fillErc20,
    // transferOut adds an owner check, an event and a call frame on top of the bare transfer
    refundNative: refundNative + 15_000n,
    refundErc20: refundErc20 + 15_000n,
    fillSwap,
    fillWrap,
    fillUnwrap,
  };
}

/** Gas units of a fill in `currency` by the route action (the calibrated transfer fills otherwise). */
export function fillGasUnits(gas: GasCalibration, currency: { isNative: boolean }, action: DestinationAction['kind']): bigint {
  switch (action) {
    case 'transfer':
      return currency.isNative ? gas.fillNative : gas.fillErc20;
    case 'swap':
      return gas.fillSwap;
    case 'wrap':
      return gas.fillWrap;
    case 'unwrap':
      return gas.fillUnwrap;
  }
}
