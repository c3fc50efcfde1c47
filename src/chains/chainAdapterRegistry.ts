import { chainMetadataFor } from '../../fixtures/chains';
import type { VmType } from '../domain/chain/chainDescription';
import { resolveAnvilBinary, type ResolveAnvilBinaryParameters } from '../process/resolveAnvilBinary';
import { resolveSolanaTestValidator } from '../process/resolveSolanaTestValidator';
import { resolveDepositConfirmations, resolveForks, type ResolvedChainConfig, type SimulatorConfig } from '../config/simulatorConfig';
import type { ChainAdapter } from './ChainAdapter';
import type { ChainAdapterContext, ChainKindOptions } from './chainAdapterContext';
import { chainKindFacts } from './chainKinds';
import { EvmChain } from './evm/EvmChain';
import { journaledForkPoint } from './evm/journaledForkPoint';
import { ConfigurationError } from '../errors/IntentsimError';

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

/**
 * Each kind's own slice of the configuration (ChainKindOptions), read and checked before anything
 * starts: `depositConfirmations` may name only chains whose kind counts confirmations; `fork` and
 * `forkBlock` go to each forked chain's kind, as its fork rules allow.
 */
export function chainKindOptions(config: SimulatorConfig): ChainKindOptions {
  const forks = resolveForks(config, (vm) => chainKindFacts(vm).fork);
  return {
    evm: { anvilPath: config.anvilPath, anvilSearchPath: config.anvilSearchPath, forks: forks.evm },
    svm: { runtime: config.svmRuntime, solanaTestValidatorPath: config.solanaTestValidatorPath, searchPath: config.anvilSearchPath, forks: forks.svm },
    bvm: { blockTimeSeconds: config.bvmBlockTimeSeconds, depositConfirmations: resolveDepositConfirmations(config, (vm) => chainKindFacts(vm).countsDepositConfirmations), forks: forks.bvm },
    lvm: { forks: forks.lvm },
  };
}

/** A kind's factory: the chain, the context every adapter shares, and the kind's own options only. */
type ChainAdapterFactory<K extends VmType> = (chain: ResolvedChainConfig, context: ChainAdapterContext, options: ChainKindOptions[K]) => ChainAdapter | Promise<ChainAdapter>;

/** The adapter of each VM kind. A new VM registers its factory here and nowhere else (ARCHITECTURE.md). */
const FACTORIES: { [K in VmType]?: ChainAdapterFactory<K> } = {
  evm: async (chain, context, options) => {
    // an attached node needs no binary; a spawned one is found as docs/chains/evm.md ("Anvil binary") says
    const anvilBinary = chain.rpcUrl ? '' : resolveAnvilBinary(anvilBinaryQuery(options));
    // a fork's upstream is asked what it is before any process starts; with --db, at the block its first start pinned (docs/forking.md)
    const journal = context.persistState && !chain.rpcUrl ? context.chainJournal : undefined;
    const fork = await journaledForkPoint({ chainId: chain.id, upstream: options.forks[chain.id], journal });
    return new EvmChain({
      ...context,
      metadata: { ...chainMetadataFor(chain.id), name: chain.name, displayName: chain.displayName },
      ...(chain.rpcUrl ? { externalNode: { rpcUrl: chain.rpcUrl, resetOnStart: chain.resetOnStart } } : {}),
      ...(fork ? { fork } : {}),
      ...(chain.port === undefined ? {} : { port: chain.port }),
      anvilBinary,
    });
  },
  // LiteSVM in-process behind the simulator's own Solana JSON-RPC, or a spawned solana-test-validator (docs/chains/solana.md ("The SVM chain"))
  // loaded only when an SVM chain is configured: its runtime (LiteSVM, @solana/*) costs ~0.3 s to load
  svm: async (chain, context, options) => {
    if (chain.rpcUrl) throw new ConfigurationError(`chain ${chain.id}: Solana runs in-process (or on --svm validator); it cannot attach to ${chain.rpcUrl}`);
    // --svm validator: a spawned solana-test-validator, found before anything starts
    const validator = options.runtime === 'validator' ? { binaryPath: resolveSolanaTestValidator({ explicitPath: options.solanaTestValidatorPath, pathEnv: options.searchPath }) } : undefined;
    const upstream = options.forks[chain.id];
    if (upstream && validator) throw new ConfigurationError(`chain ${chain.id}: a fork reads through to its upstream in the embedded Solana node; --svm validator cannot fork`);
    const { SvmChain } = await import('./svm/SvmChain');
    // a fork's first start asks its upstream whether it answers before anything starts; a restart from the journal asks nothing (docs/forking-solana.md)
    const restart = context.ledgerJournal?.has(chain.id) === true;
    const fork = upstream ? await (await import('./svm/probeSvmForkUpstream')).probeSvmForkUpstream({ chainId: chain.id, url: upstream.url, ...(restart ? { restart } : {}) }) : undefined;
    return new SvmChain({ ...context, metadata: { ...chainMetadataFor(chain.id), name: chain.name, displayName: chain.displayName }, ...(chain.port === undefined ? {} : { port: chain.port }), ...(validator ? { validator } : {}), ...(fork ? { fork } : {}) });
  },
  // the perpetuals exchange: an in-process ledger behind its own HTTP API (docs/chains/lighter.md ("The perpetuals-exchange chain"))
  lvm: async (chain, context, options) => {
    if (chain.rpcUrl) throw new ConfigurationError(`chain ${chain.id}: Lighter runs in-process; it cannot attach to ${chain.rpcUrl}`);
    const { LvmChain } = await import('./lvm/LvmChain');
    return new LvmChain({ ...context, metadata: { ...chainMetadataFor(chain.id), name: chain.name, displayName: chain.displayName }, ...(chain.port === undefined ? {} : { port: chain.port }), forks: options.forks });
  },
  // an in-process Bitcoin ledger behind the simulator's own Bitcoin Core JSON-RPC (docs/chains/bitcoin.md ("The Bitcoin-style chain"))
  bvm: async (chain, context, options) => {
    if (chain.rpcUrl) throw new ConfigurationError(`chain ${chain.id}: Bitcoin runs in-process; it cannot attach to ${chain.rpcUrl}`);
    const { BvmChain } = await import('./bvm/BvmChain');
    return new BvmChain({
      ...context,
      metadata: { ...chainMetadataFor(chain.id), name: chain.name, displayName: chain.displayName },
      ...(chain.port === undefined ? {} : { port: chain.port }),
      blockTimeSeconds: options.blockTimeSeconds,
      depositConfirmations: options.depositConfirmations,
      forks: options.forks,
    });
  },
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
export function assertChainsSupported(chains: readonly Pick<ResolvedChainConfig, 'id' | 'vm'>[]): void {
  for (const chain of chains) if (!FACTORIES[chain.vm]) throw new UnsupportedVmError(chain.id, chain.vm);
}

/** Builds the adapter for one configured chain, picked by its VM kind. */
export async function createChainAdapter(chain: ResolvedChainConfig, context: ChainAdapterContext, kindOptions: ChainKindOptions): Promise<ChainAdapter> {
  return await createOfKind(chain.vm, chain, context, kindOptions);
}

/** The factory of kind `vm`, handed that kind's options alone. */
async function createOfKind<K extends VmType>(vm: K, chain: ResolvedChainConfig, context: ChainAdapterContext, kindOptions: ChainKindOptions): Promise<ChainAdapter> {
  const factory = FACTORIES[vm] as ChainAdapterFactory<K> | undefined;
  if (!factory) throw new UnsupportedVmError(chain.id, vm);
  return await factory(chain, context, kindOptions[vm]);
}

/**
 * Builds every configured chain's adapter (in config order) and starts each one's node as soon as
 * its adapter exists, so the Anvil processes boot while another VM's runtime is still loading.
 * `nodeStarted[i]` settles once adapter i's node has started (so each chain can be brought into
 * service without waiting for the others' nodes). When an adapter cannot be built, what had
 * started is stopped before the error is thrown.
 */
export async function createChainAdaptersStartingNodes(
  chains: readonly ResolvedChainConfig[],
  context: ChainAdapterContext,
  kindOptions: ChainKindOptions,
): Promise<{ adapters: ChainAdapter[]; nodeStarted: Array<Promise<void>> }> {
  const adapters: Array<ChainAdapter | undefined> = chains.map(() => undefined);
  const starting: Array<Promise<void>> = chains.map(() => Promise.resolve());
  try {
    await Promise.all(
      chains.map(async (chain, index) => {
        const adapter = await createChainAdapter(chain, context, kindOptions);
        adapters[index] = adapter;
        const started = adapter.startNode();
        started.catch(() => undefined); // awaited by the caller through nodeStarted (or below, on a failure)
        starting[index] = started;
      }),
    );
  } catch (error) {
    await Promise.allSettled(starting);
    await Promise.allSettled(adapters.map((adapter) => adapter?.stop()));
    throw error;
  }
  return { adapters: adapters as ChainAdapter[], nodeStarted: starting };
}
