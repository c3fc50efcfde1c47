import type { ClockTimer, VirtualClock } from '../../clock/VirtualClock';
import type { LedgerJournal } from '../LedgerJournal';
import { deriveBvmAccounts, type BvmAccounts } from './bvmAccounts';
import { BvmJsonRpcServer } from './BvmJsonRpcServer';
import { BvmEsploraServer } from './BvmEsploraServer';
import { BvmLedger } from './BvmLedger';
import { BvmLedgerJournal } from './BvmLedgerJournal';
import { writeBvmGenesis } from './writeBvmGenesis';
import { BvmWallets } from './BvmWallets';
import { mnemonicSeed } from '../../keys/mnemonicSeed';
import { BvmReadThrough } from './BvmReadThrough';
import { BvmUpstreamEsplora } from './BvmUpstreamEsplora';

/** A fork's upstream: its Esplora REST API, read at its current state (not pinned to a block), and how long one read may take. */
export interface BvmForkUpstream {
  esploraUrl: string;
  /** Default `BVM_UPSTREAM_TIMEOUT_MS` (5 s). */
  timeoutMs?: number;
}

export interface BvmNodeOptions {
  chainId: number;
  clock: VirtualClock;
  /** The accounts' keys derive from it (BIP84, regtest). */
  mnemonic: string;
  accountCount: number;
  host: string;
  /** The JSON-RPC's port, the Esplora API on the next one (default: a free port each). */
  port?: number;
  /** The block time it starts with, seconds of its clock (0: blocks only on `generatetoaddress`). */
  blockTimeSeconds: number;
  /** Run as a fork of this upstream: what a request names is read from it first (`BvmReadThrough`). */
  fork?: BvmForkUpstream;
}

interface StartedParts {
  ledger: BvmLedger;
  accounts: BvmAccounts;
  rpcUrl: string;
  server: BvmJsonRpcServer;
  esplora: BvmEsploraServer;
  esploraUrl: string;
  journal: BvmLedgerJournal | undefined;
  readThrough: BvmReadThrough | undefined;
}

/**
 * The most blocks the block timer mines for one step of the clock: a longer step mines the last
 * this many, each timestamped when it was due, and skips the periods before it (the chain shows a
 * gap in block times, as after an outage). Without it a 10-year step at a 1 s block time would be
 * 315 million blocks, the event loop held for hours. 144 is a day of 10-minute blocks.
 */
export const MAX_TIMER_BLOCKS_PER_STEP = 144;

/**
 * The embedded Bitcoin-style regtest node: the UTXO ledger and mempool (`BvmLedger`) behind Bitcoin
 * Core's JSON-RPC (`BvmJsonRpcServer`, with descriptor wallets on `/wallet/<name>`: `BvmWallets`) and the Esplora REST API on a
 * port of its own (`BvmEsploraServer`), genesis paying the accounts from matured coinbases, the
 * block timer (a block every N seconds of its clock), and with a journal every change journaled
 * first and applied again at start. With `fork`, it reads through to an upstream Esplora: an
 * address's outputs and a transaction by id the first time they are asked for, kept (and
 * journaled) in the ledger; nothing is sent upstream. The simulator's BVM adapter (`chains/bvm/`) runs one;
 * `startBvmNode` runs one alone.
 */
export class BvmNode {
  private parts: StartedParts | undefined;
  private blockTimer: ClockTimer | undefined;
  /** The block timer's period and the next block's due time (virtual ms); seconds 0 when off. */
  private blockTimerAt = { seconds: 0, dueAtMs: 0 };

  constructor(private readonly options: BvmNodeOptions) {}

  /**
   * Writes genesis (at the journaled time when a journal has one) and starts the JSON-RPC, once. A
   * fork's first start (no journal of this chain yet) asks its upstream first: one that does not
   * answer as an Esplora fails the start (`BvmUpstreamError`).
   */
  async start(journalStore: LedgerJournal | undefined): Promise<void> {
    if (this.parts) return;
    const { chainId, clock, mnemonic, accountCount, host, port, fork } = this.options;
    const accounts = deriveBvmAccounts(mnemonic, accountCount);
    const ledger = new BvmLedger({ clock });
    const readThrough = fork ? new BvmReadThrough(ledger, new BvmUpstreamEsplora(fork.esploraUrl, fork.timeoutMs)) : undefined;
    // a fork's first start asks its upstream that it answers (a BvmUpstreamError if not); a restart from its journal needs no upstream
    if (readThrough && !journalStore?.has(chainId)) await readThrough.upstream.probe();
    const wallets = new BvmWallets(mnemonicSeed(mnemonic));
    // genesis at one time for all its blocks: the same on every start from the same journal
    const journal = journalStore ? new BvmLedgerJournal({ chainId, store: journalStore, ledger, wallets }) : undefined;
    if (journal) journal.open((time) => writeBvmGenesis(ledger, accounts, time), clock.nowSeconds());
    else writeBvmGenesis(ledger, accounts, clock.nowSeconds());
    const reads = readThrough ? { readThrough } : {};
    const server = new BvmJsonRpcServer(ledger, wallets, { host, ...(port !== undefined ? { port } : {}), ...reads });
    const { rpcUrl } = await server.start();
    const esplora = new BvmEsploraServer(ledger, { host, ...reads, ...(port ? { port: port + 1 } : {}) });
    const { esploraUrl } = await esplora.start();
    this.parts = { ledger, accounts, rpcUrl, server, esplora, esploraUrl, journal, readThrough };
  }

  get ledger(): BvmLedger {
    return this.started().ledger;
  }

  /** Its keys: test accounts, solver, miner, deposit root. */
  get accounts(): BvmAccounts {
    return this.started().accounts;
  }

  get rpcUrl(): string {
    return this.started().rpcUrl;
  }

  /** The Esplora REST API's base URL (a port of its own). */
  get esploraUrl(): string {
    return this.started().esploraUrl;
  }

  /** A fork's read-through (undefined when the node is no fork): what the adapter reads before it builds a PSBT or answers a balance. */
  get readThrough(): BvmReadThrough | undefined {
    return this.started().readThrough;
  }

  /** The upstream a fork reads (undefined when the node is no fork). */
  get fork(): BvmForkUpstream | undefined {
    return this.options.fork;
  }

  /**
   * Starts the block timer: with the same block time as the run that journaled it, it carries on
   * where it stood (blocks it owes are mined now); else a block every `blockTimeSeconds`.
   */
  resumeBlockTimer(): void {
    const journaled = this.started().journal?.blockTimer();
    if (journaled && journaled.startedWithSeconds === this.options.blockTimeSeconds) this.startBlockTimer(journaled.seconds, journaled.nextDueAtMs);
    else this.setIntervalMining(this.options.blockTimeSeconds);
  }

  /** Mines a block every `seconds` of its clock (0: off), the first `seconds` from now. */
  setIntervalMining(seconds: number): void {
    this.startBlockTimer(seconds, this.options.clock.now() + seconds * 1000);
  }

  /** The block timer as it is now, as a function that sets it so again (a world revert: the same period, the next block due when it was). */
  captureBlockTimer(): () => void {
    const { seconds, dueAtMs } = this.blockTimerAt;
    return () => this.startBlockTimer(seconds, dueAtMs);
  }

  async stop(): Promise<void> {
    this.blockTimer?.cancel();
    await this.parts?.server.stop();
    await this.parts?.esplora.stop();
  }

  /** The block timer: a block every `seconds`, the first due at `firstDueAtMs` (journaled, so a restart carries on). */
  private startBlockTimer(seconds: number, firstDueAtMs: number): void {
    const { ledger, accounts, journal } = this.started();
    this.blockTimer?.cancel();
    this.blockTimer = undefined;
    journal?.recordBlockTimer({ seconds: Math.max(0, seconds), firstDueAtMs, startedWithSeconds: this.options.blockTimeSeconds });
    const at = (this.blockTimerAt = { seconds: Math.max(0, seconds), dueAtMs: firstDueAtMs });
    if (seconds <= 0) return;
    const { clock } = this.options;
    const periodMs = seconds * 1000;
    // a clock step over several periods mines a block for each, timestamped when it was due, up to
    // the last MAX_TIMER_BLOCKS_PER_STEP of them (the periods before are skipped)
    const tick = () => {
      const owed = Math.floor((clock.now() - at.dueAtMs) / periodMs) + 1;
      if (owed > MAX_TIMER_BLOCKS_PER_STEP) at.dueAtMs += (owed - MAX_TIMER_BLOCKS_PER_STEP) * periodMs;
      for (; at.dueAtMs <= clock.now(); at.dueAtMs += periodMs) {
        journal?.timerBlockDue(at.dueAtMs);
        ledger.setNextBlockTimestamp(Math.floor(at.dueAtMs / 1000));
        ledger.mine(1, accounts.miner.script);
      }
      this.blockTimer = clock.setTimeout(tick, at.dueAtMs - clock.now());
    };
    this.blockTimer = clock.setTimeout(tick, at.dueAtMs - clock.now());
  }

  private started(): StartedParts {
    if (!this.parts) throw new Error(`chain ${this.options.chainId}: its ledger is not started`);
    return this.parts;
  }
}
