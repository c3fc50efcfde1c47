import { encodeFunctionData, maxUint256, type Address, type PublicClient } from 'viem';
import { depositoryArtifact, serviceReceiverArtifact, stablecoinArtifact } from '../../../fixtures/contracts/artifacts.generated';
import type { SimulatorContracts } from './deploySimulatorContracts';

/** Gas each simulator operation takes on this chain, measured with eth_estimateGas at start. */
export interface GasCalibration {
  depositNative: bigint;
  depositErc20: bigint;
  approve: bigint;
  fillNative: bigint;
  fillErc20: bigint;
  refundNative: bigint;
  refundErc20: bigint;
}

const PROBE_ID = `0x${'00'.repeat(31)}01` as const;

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
  };
}
