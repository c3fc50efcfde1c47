import type { VirtualClock } from '../clock/VirtualClock';
import type { LedgerJournal } from '../nodes/LedgerJournal';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import type { ChainJournalStore } from '../store/ChainJournalStore';
import type { DepositAddressStore } from '../store/DepositAddressStore';
import type { SolverTxStore } from '../store/SolverTxStore';
import type { QuoteRpcScope } from './QuoteRpcScope';
import type { RpcFaultStore } from './RpcFaultStore';
import type { SimulatorAccounts } from '../keys/simulatorAccounts';
import type { KeptGenesisStore } from '../keys/keptGenesisStore';
import type { ForkUpstream } from '../config/simulatorConfig';

/** What every adapter is built with, whatever its VM (each kind's own options: ChainKindOptions). */
export interface ChainAdapterContext {
  /** Where every chain's servers listen: the API's `--host` (0.0.0.0 or ::: every interface; docs/shared-host.md). */
  host: string;
  dataDir: string;
  /** Keep chain state in `dataDir` across restarts. */
  persistState: boolean;
  mnemonic: string;
  accountCount: number;
  accounts: () => SimulatorAccounts;
  clock: VirtualClock;
  chainIndex: ChainIndexStore;
  solverTransactions: SolverTxStore;
  depositAddresses: DepositAddressStore;
  /** Every mined block, to mine again what a killed node lost. */
  chainJournal: ChainJournalStore;
  /** Every change of an in-process ledger (SVM, BVM, exchange) and the calls users sent an EVM chain's front, applied again at start; undefined without `persistState`. */
  ledgerJournal: LedgerJournal | undefined;
  pollIntervalMs: number;
  quoteRpc: { scope: QuoteRpcScope; faults: RpcFaultStore; timeoutMs: number };
  onFatalError: (error: Error) => void;
  /** Where chains keep their genesis between starts (docs/start.md); undefined: the kept genesis is off, every start builds it. */
  keptGenesis?: KeptGenesisStore | undefined;
  /** Where the chains' own notices go (a deployment loaded, a journal replayed, HTTP used for lack of IPC). */
  log?: (message: string) => void;
}

/** The EVM chains' own options: where their Anvil binary is, and which chains fork an upstream. */
export interface EvmKindOptions {
  /** The chains run as forks (`--fork`, `--fork-block`), by chain id: their upstream and block. */
  forks: Readonly<Record<number, ForkUpstream>>;
  /** An explicit node binary (`INTENTSIM_ANVIL`). */
  anvilPath: string | undefined;
  /** Directories searched for the node binary last (PATH). */
  anvilSearchPath: string | undefined;
}

/** The SVM chain's own options: how it runs, and which chains fork an upstream. */
export interface SvmKindOptions {
  /** The chains run as forks of an upstream Solana JSON-RPC, by chain id (docs/forking-solana.md); embedded only. */
  forks: Readonly<Record<number, { url: string }>>;
  /** LiteSVM in-process (`embedded`) or a spawned `solana-test-validator` (`validator`). */
  runtime: 'embedded' | 'validator';
  /** An explicit `solana-test-validator` (`INTENTSIM_SOLANA_TEST_VALIDATOR`); else it is looked for on `searchPath`. */
  solanaTestValidatorPath: string | undefined;
  /** Directories searched for the validator last (PATH). */
  searchPath: string | undefined;
}

/** The Bitcoin-style chains' own options. */
export interface BvmKindOptions {
  /** The block time, seconds of the virtual clock (0: blocks only on request). */
  blockTimeSeconds: number;
  /** Confirmations a deposit needs before it is filled, by chain id (absent: the chain's default). */
  depositConfirmations: Readonly<Record<number, number>>;
  /** The chains run as forks of an upstream Esplora (`--fork CHAIN=URL`), by chain id: read at its current state, not pinned. */
  forks: Readonly<Record<number, { url: string }>>;
}

/** The Lighter chains' own options: which chains fork an upstream exchange API. */
export interface LvmKindOptions {
  /** The chains run as forks of an upstream Lighter API (`--fork CHAIN=URL`), by chain id: accounts read when first asked, not pinned. */
  forks: Readonly<Record<number, { url: string }>>;
}

/**
 * Each VM kind's own slice of the configuration: the registry hands a kind's factory its slice
 * (and the ChainAdapterContext every adapter shares), never another kind's.
 */
export interface ChainKindOptions {
  evm: EvmKindOptions;
  svm: SvmKindOptions;
  bvm: BvmKindOptions;
  lvm: LvmKindOptions;
}
