import { VirtualClock } from '../../src/clock/VirtualClock';
import type { ChainAdapterContext } from '../../src/chains/chainAdapterContext';
import { QuoteRpcScope } from '../../src/chains/QuoteRpcScope';
import { RpcFaultStore } from '../../src/chains/RpcFaultStore';
import { DEFAULT_MNEMONIC } from '../../src/keys/defaultMnemonic';
import { deriveSimulatorAccounts } from '../../src/keys/simulatorAccounts';
import { ChainIndexStore } from '../../src/store/ChainIndexStore';
import { ChainJournalStore } from '../../src/store/ChainJournalStore';
import { DepositAddressStore } from '../../src/store/DepositAddressStore';
import { openDatabase } from '../../src/store/openDatabase';
import { SolverTxStore } from '../../src/store/SolverTxStore';

/**
 * What the simulator hands every chain adapter (ChainAdapterContext), on an in-memory database and
 * a real-time clock of its own, for a test that builds one adapter alone (no service around it).
 */
export function inMemoryChainContext(accountCount = 2): ChainAdapterContext {
  const db = openDatabase(':memory:');
  const accounts = deriveSimulatorAccounts(DEFAULT_MNEMONIC, accountCount);
  return {
    dataDir: '',
    persistState: false,
    mnemonic: DEFAULT_MNEMONIC,
    accountCount,
    accounts: () => accounts,
    clock: new VirtualClock({ mode: 'real' }),
    chainIndex: new ChainIndexStore(db),
    solverTransactions: new SolverTxStore(db),
    depositAddresses: new DepositAddressStore(db),
    chainJournal: new ChainJournalStore(db),
    ledgerJournal: undefined,
    pollIntervalMs: 100,
    quoteRpc: { scope: new QuoteRpcScope(), faults: new RpcFaultStore(), timeoutMs: 5_000 },
    onFatalError: (error) => {
      throw error;
    },
  };
}
