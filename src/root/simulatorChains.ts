import type { ChainAdapter } from '../chains/ChainAdapter';
import type { ChainAdapterContext, ChainKindOptions } from '../chains/chainAdapterContext';
import { assertChainsSupported, chainKindOptions, createChainAdaptersStartingNodes } from '../chains/chainAdapterRegistry';
import { ChainControl } from '../chains/ChainControl';
import { chainKindFacts } from '../chains/chainKinds';
import { resolveChainPorts } from '../config/resolveChainPorts';
import { QuoteRpcScope } from '../chains/QuoteRpcScope';
import { RpcFaultStore } from '../chains/RpcFaultStore';
import type { VirtualClock } from '../clock/VirtualClock';
import { resolveChains, type ResolvedChainConfig, type SimulatorConfig } from '../config/simulatorConfig';
import type { SimulatorAccounts } from '../keys/simulatorAccounts';
import type { SimulatorDataPaths } from './simulatorDataPaths';
import type { SimulatorStores } from './simulatorStores';
import { stopParts } from './stopParts';
import { chainPortInUse } from './chainPortInUse';
import { keptGenesisStore } from '../keys/keptGenesisStore';

/** The chains a config asks for, checked before anything starts. */
export interface ChainPlan {
  chains: ResolvedChainConfig[];
  /** Each kind's own slice of the configuration (its confirmation counts checked). */
  kindOptions: ChainKindOptions;
}

/** Refuses a chain no adapter runs, confirmation counts a chain cannot take and `--chain-port`s that clash, before anything starts. */
export function planChains(config: SimulatorConfig): ChainPlan {
  const chains = resolveChains(config);
  assertChainsSupported(chains);
  resolveChainPorts(config, (vm) => chainKindFacts(vm).clientServers);
  return { chains, kindOptions: chainKindOptions(config) };
}

/** One simulator's chains: the adapters in start order, by id, their control plane and quote-time RPC faults. */
export interface SimulatorChains {
  list: ChainAdapter[];
  byId: ReadonlyMap<number, ChainAdapter>;
  control: ChainControl;
  rpcFaults: RpcFaultStore;
  quoteRpcScope: QuoteRpcScope;
  /** Brings each chain into service once its own node is up (an EVM chain deploys while the SVM genesis is written). */
  start(): Promise<void>;
  /** Stops the chains in reverse order of start, each even when another failed. */
  stop(): Promise<void>;
}

/** Builds every chain's adapter; each chain's node starts as soon as its adapter exists (Anvil boots while LiteSVM loads). */
export async function createSimulatorChains(
  config: SimulatorConfig,
  plan: ChainPlan,
  deps: {
    paths: SimulatorDataPaths;
    stores: SimulatorStores;
    clock: VirtualClock;
    accounts: () => SimulatorAccounts;
    log: (message: string) => void;
    onFatalError: (error: Error) => void;
  },
): Promise<SimulatorChains> {
  const { paths, stores, clock } = deps;
  const rpcFaults = new RpcFaultStore();
  const quoteRpcScope = new QuoteRpcScope();
  const context: ChainAdapterContext = {
    host: config.host,
    dataDir: paths.dataDir,
    persistState: paths.persistState,
    mnemonic: config.mnemonic,
    accountCount: config.accountCount,
    accounts: deps.accounts,
    clock,
    chainIndex: stores.chainIndex,
    solverTransactions: stores.solverTransactions,
    depositAddresses: stores.depositAddresses,
    chainJournal: stores.chainJournal,
    ledgerJournal: stores.ledgerJournal,
    pollIntervalMs: config.chainPollIntervalMs,
    quoteRpc: { scope: quoteRpcScope, faults: rpcFaults, timeoutMs: config.quoteRpcTimeoutMs },
    log: deps.log,
    onFatalError: deps.onFatalError,
    keptGenesis: config.keptGenesis ? keptGenesisStore() : undefined,
  };
  const { adapters, nodeStarted } = await createChainAdaptersStartingNodes(plan.chains, context, plan.kindOptions);
  const byId: ReadonlyMap<number, ChainAdapter> = new Map(adapters.map((chain) => [chain.chainId, chain]));
  return {
    list: adapters,
    byId,
    control: new ChainControl({ clock, chains: byId }),
    rpcFaults,
    quoteRpcScope,
    start: async () => {
      await Promise.all(
        adapters.map(async (chain, index) => {
          try {
            await nodeStarted[index];
            await chain.start();
          } catch (error) {
            throw chainPortInUse(chain.chainId, plan.chains[index]!.port, error);
          }
        }),
      );
    },
    stop: () => stopParts([...adapters].reverse()),
  };
}
