import { VirtualClock } from '../clock/VirtualClock';
import { DEFAULT_MNEMONIC } from '../keys/defaultMnemonic';

/** How a node started alone (`startSvmNode`, `startBvmNode`, `startLvmNode`, `intentsim node`) is set up; every field has a default. */
export interface EmbeddedNodeOptions {
  /** Where its RPC (or API) listens (default 127.0.0.1). */
  host?: string;
  /** Its port (default: a free one). */
  port?: number;
  /** The accounts' mnemonic (default Anvil's, as `intentsim start`). */
  mnemonic?: string;
  /** How many funded test accounts genesis writes (default 10). */
  accountCount?: number;
  /** The chain id the node's keys and hashes are derived for (default the simulator's id for that chain). */
  chainId?: number;
  /** The node's clock (default a real-time virtual clock of its own). */
  clock?: VirtualClock;
}

export type ResolvedEmbeddedNodeOptions = Required<Omit<EmbeddedNodeOptions, 'port'>> & { port: number };

/** The options with their defaults filled in. */
export function resolveEmbeddedNodeOptions(options: EmbeddedNodeOptions, defaultChainId: number): ResolvedEmbeddedNodeOptions {
  return {
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    mnemonic: options.mnemonic ?? DEFAULT_MNEMONIC,
    accountCount: options.accountCount ?? 10,
    chainId: options.chainId ?? defaultChainId,
    clock: options.clock ?? new VirtualClock({ mode: 'real' }),
  };
}
