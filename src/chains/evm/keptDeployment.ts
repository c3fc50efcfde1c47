import { statSync } from 'node:fs';
import type { Hex } from 'viem';
import { keptGenesisKey, type KeptGenesisStore } from '../../keys/keptGenesisStore';
import type { SimulatorAccounts } from '../../keys/simulatorAccounts';
import { calibrateGas, type GasCalibration } from './calibrateGas';
import { deploymentInputs, deploySimulatorContracts, fundDeployerAndSolver } from './deploySimulatorContracts';
import { deploymentSnapshot, deploymentSnapshotKey, rememberDeploymentSnapshot, type DeploymentSnapshot } from './deploymentSnapshots';
import { anvilArgs, type AnvilInstanceOptions } from './AnvilInstance';
import { installBatchExecutor } from './installBatchExecutor';

/** The kind of entry in the kept-genesis store. */
const KIND = 'evm-deployment';
/** Bumped when the deployment changes in a way the parts below do not show. */
const DEPLOYMENT_VERSION = 1;

/**
 * Names the deployment an Anvil this simulator spawns gets: everything that decides its state —
 * the node (its binary, by path, size and modification time, and the flags that shape its genesis:
 * chain id, mnemonic, dev accounts), the contracts' bytecode, the amounts it funds and mints, the
 * accounts it signs with and funds, the code that deploys and measures (its source text) — so a
 * kept one is only loaded by a start that would deploy the same.
 */
export function spawnedDeploymentKey(parts: { anvilBinary: string; anvilArgs: readonly string[]; chainId: number; nativeSymbol: string; accounts: SimulatorAccounts }): string {
  const binary = statSync(parts.anvilBinary);
  const { accounts } = parts;
  return keptGenesisKey({
    version: DEPLOYMENT_VERSION,
    node: { binary: parts.anvilBinary, size: binary.size, modified: binary.mtimeMs, args: parts.anvilArgs },
    chainId: parts.chainId,
    nativeSymbol: parts.nativeSymbol,
    ...deploymentInputs(parts.nativeSymbol),
    accounts: { deployer: accounts.deployer.address, solver: accounts.solver.address, relayer: accounts.relayer.address, test: accounts.testAccounts.map((account) => account.address) },
    code: [installBatchExecutor, fundDeployerAndSolver, deploySimulatorContracts, calibrateGas].map((step) => step.toString()),
  });
}

/**
 * A deployment kept under one key, in one place: read before deploying, written once deployed.
 * `from` names the place (`StartedEvmChain.deployment` when it was loaded).
 */
export interface KeptDeployment {
  from: 'loaded' | 'kept-genesis';
  read(): DeploymentSnapshot | undefined;
  write(deployment: DeploymentSnapshot): void;
}

/**
 * Where a chain's deployment may be loaded from instead of sent: a node attached with a genesis it
 * is reset to keeps the first deployment on it for the process (`deploymentSnapshots.ts`); a node
 * this simulator spawns fresh keeps it between starts (the kept genesis) unless it is a fork (its
 * state is the upstream's) or keeps its own state (`--db`: then `spawned` is undefined), or the kept
 * genesis is off (no `store`).
 */
export function keptDeploymentFor(parts: {
  chainId: number;
  nativeSymbol: string;
  accounts: SimulatorAccounts;
  rpcUrl: string;
  attachedGenesis: string | undefined;
  spawned: AnvilInstanceOptions | undefined;
  store: KeptGenesisStore | undefined;
}): KeptDeployment | undefined {
  const { chainId, nativeSymbol, accounts } = parts;
  if (parts.attachedGenesis !== undefined) {
    const key = deploymentSnapshotKey({ rpcUrl: parts.rpcUrl, genesis: parts.attachedGenesis, chainId, nativeSymbol, accounts });
    return { from: 'loaded', read: () => deploymentSnapshot(key), write: (deployment) => rememberDeploymentSnapshot(key, deployment) };
  }
  const store = parts.store;
  if (!store || !parts.spawned) return undefined;
  const { binaryPath, logFile, startTimeoutMs, ipcPath, port, host, ...shaping } = parts.spawned;
  const key = spawnedDeploymentKey({ anvilBinary: binaryPath, anvilArgs: anvilArgs(shaping), chainId, nativeSymbol, accounts });
  return { from: 'kept-genesis', read: () => readKeptDeployment(store, key), write: (deployment) => writeKeptDeployment(store, key, deployment) };
}

/** The deployment kept under `key`: its state (`anvil_dumpState`) and gas; undefined when none or unreadable. */
function readKeptDeployment(store: KeptGenesisStore, key: string): DeploymentSnapshot | undefined {
  const payload = store.read(KIND, key);
  if (payload === undefined) return undefined;
  try {
    const parsed = JSON.parse(payload) as { state?: unknown; gas?: unknown };
    if (typeof parsed.state !== 'string' || !/^0x[0-9a-f]+$/i.test(parsed.state) || typeof parsed.gas !== 'object' || parsed.gas === null) return undefined;
    const gas = Object.fromEntries(Object.entries(parsed.gas as Record<string, unknown>).map(([name, value]) => [name, BigInt(value as string)]));
    return { state: parsed.state as Hex, gas: gas as unknown as GasCalibration };
  } catch {
    return undefined;
  }
}

function writeKeptDeployment(store: KeptGenesisStore, key: string, deployment: DeploymentSnapshot): void {
  const gas = Object.fromEntries(Object.entries(deployment.gas).map(([name, value]) => [name, (value as bigint).toString()]));
  store.write(KIND, key, JSON.stringify({ state: deployment.state, gas }));
}
