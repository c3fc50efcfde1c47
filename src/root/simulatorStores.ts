import type Database from 'better-sqlite3';
import type { VirtualClock } from '../clock/VirtualClock';
import type { SimulatorConfig } from '../config/simulatorConfig';
import { ApiKeyStore } from '../store/ApiKeyStore';
import { AppFeeStore } from '../store/AppFeeStore';
import { ChainIndexStore } from '../store/ChainIndexStore';
import { ChainJournalStore } from '../store/ChainJournalStore';
import { DepositAddressStore } from '../store/DepositAddressStore';
import { ExchangeAuthorizationStore } from '../store/ExchangeAuthorizationStore';
import { LedgerJournalStore } from '../store/LedgerJournalStore';
import { MetaStore } from '../store/MetaStore';
import { openDatabase } from '../store/openDatabase';
import { RequestListingStore } from '../store/RequestListingStore';
import { RequestStore } from '../store/RequestStore';
import { SolverTxStore } from '../store/SolverTxStore';
import { SponsorBalanceStore } from '../store/SponsorBalanceStore';
import { startWalCheckpoints } from '../store/walCheckpoints';
import { WebhookStore } from '../store/WebhookStore';
import type { SimulatorDataPaths } from './simulatorDataPaths';

/** Every store of one simulator, over its one SQLite database. */
export interface SimulatorStores {
  /** The database itself: only the lifecycle's record writer is built on it beside these stores. */
  db: Database.Database;
  requests: RequestStore;
  listing: RequestListingStore;
  chainIndex: ChainIndexStore;
  solverTransactions: SolverTxStore;
  depositAddresses: DepositAddressStore;
  meta: MetaStore;
  apiKeys: ApiKeyStore;
  sponsorBalances: SponsorBalanceStore;
  webhooks: WebhookStore;
  appFees: AppFeeStore;
  authorizations: ExchangeAuthorizationStore;
  /** Every mined EVM block, to mine again what a killed node lost. */
  chainJournal: ChainJournalStore;
  /** Every change of an in-process ledger and the calls users sent an EVM chain's front; only with `--db`. */
  ledgerJournal: LedgerJournalStore | undefined;
  /** The default API key (SPEC §5), made on the first start of a database. */
  defaultApiKey: string;
}

export interface OpenedStores {
  stores: SimulatorStores;
  /** The start is over: WAL checkpoints may move to their worker once commits come fast. */
  startupDone(): void;
  /** Stops the checkpoints, then closes the database. */
  stop(): Promise<void>;
}

/** Opens the database (migrations included), its WAL checkpoints and every store on it. */
export function openSimulatorStores(config: SimulatorConfig, paths: SimulatorDataPaths, clock: VirtualClock, log: (message: string) => void): OpenedStores {
  const db = openDatabase(paths.dbPath);
  // WAL checkpoints (and their fsyncs) on a timer, never inside a request's commit; in a worker thread under load
  const checkpoints = startWalCheckpoints(db, paths.dbPath, log);
  const apiKeys = new ApiKeyStore(db, config.seed);
  const defaultApiKey = apiKeys.ensureDefault(clock.now()).key;
  const webhooks = new WebhookStore(db);
  if (config.webhook) webhooks.putEndpoint(defaultApiKey, config.webhook, clock.now());
  const stores: SimulatorStores = {
    db,
    requests: new RequestStore(db),
    listing: new RequestListingStore(db),
    chainIndex: new ChainIndexStore(db),
    solverTransactions: new SolverTxStore(db),
    depositAddresses: new DepositAddressStore(db),
    meta: new MetaStore(db),
    apiKeys,
    sponsorBalances: new SponsorBalanceStore(db),
    webhooks,
    appFees: new AppFeeStore(db),
    authorizations: new ExchangeAuthorizationStore(db),
    chainJournal: new ChainJournalStore(db),
    ledgerJournal: paths.persistState ? new LedgerJournalStore(db) : undefined,
    defaultApiKey,
  };
  return {
    stores,
    startupDone: () => checkpoints.startupDone(),
    stop: async () => {
      try {
        await checkpoints.stop();
      } finally {
        db.close();
      }
    },
  };
}
