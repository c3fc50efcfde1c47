import { chainMetadataFor } from '../../fixtures/chains';
import type { VirtualClock } from '../clock/VirtualClock';
import type { VmType } from '../domain/chain/chainDescription';
import { resolveAnvilBinary, type ResolveAnvilBinaryParameters } from '../process/resolveAnvilBinary';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import type { ChainJournalStore } from '../store/ChainJournalStore';
import type { DepositAddressStore } from '../store/DepositAddressStore';
import type { SolverTxStore } from '../store/SolverTxStore';
import type { ChainAdapter } from './ChainAdapter';
import { EvmChain } from './evm/EvmChain';
import type { QuoteRpcScope } from './QuoteRpcScope';
import type { RpcFaultStore } from './RpcFaultStore';
import type { SimulatorAccounts } from './simulatorAccounts';
import { ConfigurationError } from '../errors/IntentsimError';

/** One configured chain, as the simulator root resolved it from the config. */
export interface ChainToStart {
  id: number;
  vm: VmType;
  name: string;
  displayName: string;
  /** Attach to this node instead of starting one. */
  rpcUrl: string | undefined;
  resetOnStart: boolean;
}

/** What every adapter is built with, whatever its VM. */
export interface ChainAdapterContext {
  dataDir: string;
  /** Keep chain state in `dataDir` across restarts. */
  persistState: boolean;
  mnemonic: string;
  accountCount: number;
  accounts: () => SimulatorAccounts;
  /** An explicit node binary (`INTENTSIM_ANVIL` for EVM chains). */
  anvilPath: string | undefined;
  /** Directories searched for the node binary last (PATH). */
  anvilSearchPath: string | undefined;
  clock: VirtualClock;
  chainIndex: ChainIndexStore;
  solverTransactions: SolverTxStore;
  depositAddresses: DepositAddressStore;
  /** Every mined block, to mine again what a killed node lost. */
  chainJournal: ChainJournalStore;
  pollIntervalMs: number;
  quoteRpc: { scope: QuoteRpcScope; faults: RpcFaultStore; timeoutMs: number };
  onFatalError: (error: Error) => void;
}

/**
 * Where `intentsim start` looks for anvil: the explicit path (INTENTSIM_ANVIL / --anvil), else the
 * package's binary, else the search path (PATH) the config read.
 */
export function anvilBinaryQuery(context: { anvilPath?: string | undefined; anvilSearchPath?: string | undefined }): ResolveAnvilBinaryParameters {
  return {
    ...(context.anvilPath ? { explicitPath: context.anvilPath } : {}),
    ...(context.anvilSearchPath === undefined ? {} : { pathEnv: context.anvilSearchPath }),
  };
}

type ChainAdapterFactory = (chain: ChainToStart, context: ChainAdapterContext) => ChainAdapter;

/** The adapter of each VM kind. A new VM registers its factory here and nowhere else (ARCHITECTURE.md). */
const FACTORIES: Partial<Record<VmType, ChainAdapterFactory>> = {
  evm: (chain, context) =>
    new EvmChain({
      metadata: { ...chainMetadataFor(chain.id), name: chain.name, displayName: chain.displayName },
      ...(chain.rpcUrl ? { externalNode: { rpcUrl: chain.rpcUrl, resetOnStart: chain.resetOnStart } } : {}),
      // an attached node needs no binary; a spawned one is found as README "Anvil binary" says
      anvilBinary: chain.rpcUrl ? '' : resolveAnvilBinary(anvilBinaryQuery(context)),
      dataDir: context.dataDir,
      persistState: context.persistState,
      mnemonic: context.mnemonic,
      accountCount: context.accountCount,
      accounts: context.accounts,
      clock: context.clock,
      chainIndex: context.chainIndex,
      solverTransactions: context.solverTransactions,
      depositAddresses: context.depositAddresses,
      chainJournal: context.chainJournal,
      pollIntervalMs: context.pollIntervalMs,
      quoteRpc: context.quoteRpc,
      onFatalError: context.onFatalError,
    }),
};

export class UnsupportedVmError extends ConfigurationError {
  constructor(readonly chainId: number, readonly vm: VmType) {
    super(`chain ${chainId}: no adapter for vm "${vm}" yet (this simulator runs: ${registeredVms().join(', ')})`);
  }
}

export function registeredVms(): VmType[] {
  return Object.keys(FACTORIES) as VmType[];
}

/** Fails before anything starts when a configured chain's VM has no adapter. */
export function assertChainsSupported(chains: readonly Pick<ChainToStart, 'id' | 'vm'>[]): void {
  for (const chain of chains) if (!FACTORIES[chain.vm]) throw new UnsupportedVmError(chain.id, chain.vm);
}

/** Builds the adapter for one configured chain, picked by its VM kind. */
export function createChainAdapter(chain: ChainToStart, context: ChainAdapterContext): ChainAdapter {
  const factory = FACTORIES[chain.vm];
  if (!factory) throw new UnsupportedVmError(chain.id, chain.vm);
  return factory(chain, context);
}
