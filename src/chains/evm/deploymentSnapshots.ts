import { createHash } from 'node:crypto';
import type { Hex } from 'viem';
import type { SimulatorAccounts } from '../../keys/simulatorAccounts';
import type { GasCalibration } from './calibrateGas';

/** A node's whole state right after the simulator's deployment (`anvil_dumpState`), and the gas measured on it. */
export interface DeploymentSnapshot {
  state: Hex;
  gas: GasCalibration;
}

/**
 * The deployment, kept per attached node for the life of this process: a node reset to genesis on
 * attach (`resetOnStart`, e.g. a test worker's pooled chain) gets the simulator's contracts with one
 * `anvil_loadState` of what the first simulator on it deployed (blocks, receipts and accounts, the
 * same bytes), instead of ~27 transactions and a dozen gas estimates again. Kept in memory only: the
 * state holds this code version's contracts, and a node's genesis is only known while it runs.
 */
const snapshots = new Map<string, DeploymentSnapshot>();

/**
 * Names one deployment: the node (its URL and what its genesis is made of: environment, hard fork,
 * dev accounts and their balance), the chain, and every account the deployment funds or signs with.
 */
export function deploymentSnapshotKey(parts: { rpcUrl: string; genesis: string; chainId: number; nativeSymbol: string; accounts: SimulatorAccounts }): string {
  const { accounts } = parts;
  return createHash('sha256')
    .update(
      JSON.stringify({
        rpcUrl: parts.rpcUrl,
        genesis: parts.genesis,
        chainId: parts.chainId,
        nativeSymbol: parts.nativeSymbol,
        deployer: accounts.deployer.address,
        solver: accounts.solver.address,
        relayer: accounts.relayer.address,
        testAccounts: accounts.testAccounts.map((account) => account.address),
      }),
    )
    .digest('hex');
}

export function deploymentSnapshot(key: string): DeploymentSnapshot | undefined {
  return snapshots.get(key);
}

export function rememberDeploymentSnapshot(key: string, snapshot: DeploymentSnapshot): void {
  snapshots.set(key, snapshot);
}
