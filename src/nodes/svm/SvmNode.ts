import { startDerivationCache } from '../../keys/startDerivationCache';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { LedgerJournal } from '../LedgerJournal';
import type { SvmAccounts } from './svmAccounts';
import { SvmJsonRpcServer, type SvmRpcEndpoints } from './SvmJsonRpcServer';
import type { SvmLedger } from './SvmLedger';
import type { SvmLedgerHistory } from './SvmLedgerHistory';
import { openSvmLedger } from './SvmLedgerJournal';
import { writeSvmAggregatorGenesis } from './writeSvmAggregatorGenesis';
import { writeSvmGenesis } from './writeSvmGenesis';
import { SvmUpstreamAccounts } from './SvmUpstreamAccounts';
import { SvmUpstreamRpc } from './SvmUpstreamRpc';

/** A fork's upstream: its Solana JSON-RPC URL, and how long one call to it may take (default SVM_UPSTREAM_TIMEOUT_MS). */
export interface SvmForkUpstream {
  url: string;
  timeoutMs?: number;
}

/** The embedded SVM node running: its ledger, where its JSON-RPC and websocket listen, and how to stop it. */
export interface RunningSvmNode {
  ledger: SvmLedger;
  /** Rollbacks, snapshots and reorgs of the ledger. */
  history: SvmLedgerHistory;
  endpoints: SvmRpcEndpoints;
  stop(): Promise<void>;
}

/**
 * Starts the embedded SVM node: LiteSVM in-process (`SvmLedger`) with genesis written for
 * `accounts` (SOL, the stablecoin and the aggregator's tokens and pools), behind the project's own
 * Solana JSON-RPC and its websocket on the port after it. With a journal: genesis at its first
 * start's time, then every journaled slot again (`SvmLedgerJournal`), then every slot journaled.
 * With `fork`, accounts the chain never had are read from the upstream the first time they are
 * asked for or used (`SvmUpstreamAccounts`), and journaled like any change.
 * The simulator's SVM adapter (`chains/svm/`, `--svm embedded`) runs one; `startSvmNode` runs one alone.
 */
export async function runSvmNode(params: {
  chainId: number;
  clock: VirtualClock;
  mnemonic: string;
  accounts: SvmAccounts;
  host: string;
  port?: number;
  journal: LedgerJournal | undefined;
  /** Run as a fork of this upstream Solana JSON-RPC: accounts the chain never had are read from it (SvmUpstreamAccounts). */
  fork?: SvmForkUpstream;
}): Promise<RunningSvmNode> {
  const { chainId, clock, mnemonic, accounts, host, port, journal, fork } = params;
  const { ledger, history } = await openSvmLedger({
    chainId,
    journal,
    ledger: { clock, seed: `${mnemonic}:${chainId}`, faucet: accounts.faucet.signer },
    writeGenesis: async (opened) => {
      await writeSvmGenesis(opened, accounts);
      await writeSvmAggregatorGenesis(opened, accounts);
      // the genesis token-account addresses, for the next start
      startDerivationCache().save();
    },
  });
  // after the journal's replay: what earlier runs read from the upstream is in it already
  if (fork) ledger.setAccountSource(new SvmUpstreamAccounts(ledger, new SvmUpstreamRpc(fork.url, fork.timeoutMs)));
  const server = new SvmJsonRpcServer(ledger, { host, ...(port !== undefined ? { port } : {}) });
  const endpoints = await server.start();
  return { ledger, history, endpoints, stop: () => server.stop() };
}
