import type { Address, PublicClient, TestClient } from 'viem';
import { batchExecutorArtifact } from '../../../fixtures/contracts/artifacts.generated';

/**
 * Where the official SDK's `executeGaslessBatch` expects its EIP-7702 batch executor (Uniswap's
 * Calibur, deployed at this address on every chain it supports).
 */
export const CALIBUR_ADDRESS: Address = '0x000000009B1D0aF20D8C6d0A44e162d11F9b8f00';

/**
 * Installs the fixture `BatchExecutor` (Calibur's execute/getSeq subset) at Calibur's address,
 * unless code is there already: a cheat call, like the genesis funding, so it is done again on
 * every start and never journaled as a block.
 */
export async function installBatchExecutor(params: { client: PublicClient; testClient: TestClient }): Promise<void> {
  const code = await params.client.getCode({ address: CALIBUR_ADDRESS });
  if (code && code !== '0x') return;
  await params.testClient.setCode({ address: CALIBUR_ADDRESS, bytecode: batchExecutorArtifact.deployedBytecode });
}
