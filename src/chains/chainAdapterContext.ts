import type { VirtualClock } from '../clock/VirtualClock';
import type { LedgerJournal } from '../nodes/LedgerJournal';
import type { ChainIndexStore } from '../store/ChainIndexStore';
import type { ChainJournalStore } from '../store/ChainJournalStore';
import type { DepositAddressStore } from '../store/DepositAddressStore';
import type { SolverTxStore } from '../store/SolverTxStore';
import type { QuoteRpcScope } from './QuoteRpcScope';
import type { RpcFaultStore } from './RpcFaultStore';
import type { SimulatorAccounts } from '../keys/simulatorAccounts';

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
  /** Every change of an in-process ledger (SVM, BVM, exchange) and the calls users sent an EVM chain's front, applied again at start; undefined without `persistState`. */
  ledgerJournal: LedgerJournal | undefined;
  pollIntervalMs: number;
  /** The BVM chain's block time, seconds of the virtual clock (0: blocks only on request). */
  bvmBlockTimeSeconds: number;
  /** Confirmations a deposit needs before it is filled, by chain id (absent: 1); the Bitcoin-style chains read it. */
  depositConfirmations: Readonly<Record<number, number>>;
  /** How the SVM chain runs: LiteSVM in-process (`embedded`) or a spawned `solana-test-validator` (`validator`). */
  svmRuntime: 'embedded' | 'validator';
  /** An explicit `solana-test-validator` (`INTENTSIM_SOLANA_TEST_VALIDATOR`); else it is looked for on `anvilSearchPath` (PATH). */
  solanaTestValidatorPath: string | undefined;
  quoteRpc: { scope: QuoteRpcScope; faults: RpcFaultStore; timeoutMs: number };
  onFatalError: (error: Error) => void;
  /** Where the chains' own notices go (a deployment loaded, a journal replayed, HTTP used for lack of IPC). */
  log?: (message: string) => void;
}
