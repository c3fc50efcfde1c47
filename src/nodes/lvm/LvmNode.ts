import type { Address } from 'viem';
import type { VirtualClock } from '../../clock/VirtualClock';
import type { LedgerJournal } from '../LedgerJournal';
import { LvmApiServer } from './LvmApiServer';
import { LvmLedger } from './LvmLedger';
import { LvmLedgerJournal } from './LvmLedgerJournal';
import { lvmApiKey, writeLvmGenesis, type LvmGenesis } from './writeLvmGenesis';
import { LvmReadThrough } from './LvmReadThrough';
import { LvmUpstreamApi } from './LvmUpstreamApi';

/** A fork's upstream: another exchange API (the routes `LvmApiServer` serves), read at its current state (not pinned), and how long one read may take. */
export interface LvmForkUpstream {
  apiUrl: string;
  /** Default `LVM_UPSTREAM_TIMEOUT_MS` (5 s). */
  timeoutMs?: number;
}

export interface LvmNodeOptions {
  chainId: number;
  clock: VirtualClock;
  /** API keys derive from it (the same every start). */
  mnemonic: string;
  host: string;
  /** Default: a free port. */
  port?: number;
  /** Run as a fork of this upstream: accounts a request names that are unknown here are read from it first (`LvmReadThrough`). */
  fork?: LvmForkUpstream;
}

/** Who owns the genesis accounts: the treasury, the solver's account and one per test account (EVM addresses). */
export interface LvmGenesisOwners {
  deployer: Address;
  solver: Address;
  testAccounts: readonly Address[];
}

/**
 * The embedded perpetuals exchange as a node: its ledger (`LvmLedger`) behind its own HTTP API
 * (`LvmApiServer`), genesis written once, and with a journal every change journaled first and
 * replayed at start. With `fork`, accounts unknown here are read from an upstream exchange API the
 * first time they are asked for and kept (journaled); nothing is sent upstream. The simulator's exchange adapter (`chains/lvm/`) runs one; `startLvmNode`
 * runs one alone.
 */
export class LvmNode {
  readonly ledger: LvmLedger;
  /** A fork's read-through (undefined when the node is no fork). */
  readonly readThrough: LvmReadThrough | undefined;
  private server: LvmApiServer | undefined;
  private url: string | undefined;
  private genesis_: LvmGenesis | undefined;

  constructor(private readonly options: LvmNodeOptions) {
    this.ledger = new LvmLedger({ clock: options.clock });
    const { fork, mnemonic, chainId } = options;
    this.readThrough = fork ? new LvmReadThrough(this.ledger, new LvmUpstreamApi(fork.apiUrl, fork.timeoutMs), (index) => lvmApiKey(mnemonic, chainId, index)) : undefined;
  }

  /** The upstream a fork reads (undefined when the node is no fork). */
  get fork(): LvmForkUpstream | undefined {
    return this.options.fork;
  }

  /** Starts the HTTP API (once); answers its base URL. */
  async listen(): Promise<string> {
    if (this.url) return this.url;
    const { host, port, mnemonic, chainId } = this.options;
    const server = new LvmApiServer(this.ledger, { host, ...(port !== undefined ? { port } : {}), apiKeyFor: (index) => lvmApiKey(mnemonic, chainId, index), ...(this.readThrough ? { readThrough: this.readThrough } : {}) });
    this.url = await server.start();
    this.server = server;
    return this.url;
  }

  /** The API's base URL (after `listen`). */
  get apiUrl(): string {
    if (!this.url) throw new Error(`chain ${this.options.chainId}: its API is not started`);
    return this.url;
  }

  /**
   * A fork's first start (no journal of this chain yet) asks its upstream that it answers as an
   * exchange API (an `LvmApiError` 502 if not); a restart from its journal, or a node that is no
   * fork, asks nothing.
   */
  async checkUpstream(journal: LedgerJournal | undefined): Promise<void> {
    if (this.readThrough && !journal?.has(this.options.chainId)) await this.readThrough.upstream.probe();
  }

  /** Writes genesis (once); with a journal, the changes an earlier run journaled are made again, then every change is journaled. */
  writeGenesis(owners: LvmGenesisOwners, journal: LedgerJournal | undefined): LvmGenesis {
    if (this.genesis_) return this.genesis_;
    const { chainId, mnemonic, clock } = this.options;
    this.genesis_ = writeLvmGenesis(this.ledger, owners, { mnemonic, chainId });
    if (journal) new LvmLedgerJournal({ chainId, ledger: this.ledger, store: journal, nowMs: () => clock.now() }).resume(owners);
    return this.genesis_;
  }

  /** The accounts genesis made (after `writeGenesis`). */
  get genesis(): LvmGenesis | undefined {
    return this.genesis_;
  }

  /** An account's API key (derived from the mnemonic, the chain and the index). */
  apiKeyOf(index: number): string {
    return lvmApiKey(this.options.mnemonic, this.options.chainId, index);
  }

  async stop(): Promise<void> {
    await this.server?.stop();
  }
}
