import { ChainError } from '../../errors/IntentsimError';
import type { LedgerJournal } from '../LedgerJournal';
import type { BvmLedger, BvmLedgerChange } from './BvmLedger';
import { toHex } from './bvmCrypto';
import type { BvmWalletChange, BvmWallets } from './BvmWallets';

/** One entry of the BVM chain's journal (`ledger_journal`), oldest first. */
export type BvmJournalEntry =
  /** The first entry: genesis was written at `time`; its tip, to notice a different mnemonic or account count. */
  | { kind: 'genesis'; time: number; tipHash: string }
  /** A transaction accepted into the mempool at `time` (raw hex). */
  | { kind: 'admit'; hex: string; time: number }
  /** A mempool transaction dropped unmined, with its mempool descendants. */
  | { kind: 'evict'; txid: string }
  /** The next block's timestamp was pinned (a cheat call). */
  | { kind: 'nextBlockTime'; time: number }
  /** The tip was disconnected (`invalidateblock`), or disconnected blocks connected again (`reconsiderblock`). */
  | { kind: 'invalidateTip'; hash: string }
  | { kind: 'reconsider'; hash: string }
  /** A competing branch replaced the last `depth` blocks (`BvmLedger.reorg`), its blocks at `time` paying `coinbaseScript` (hex), the first holding `including`. */
  | { kind: 'reorg'; depth: number; time: number; coinbaseScript: string; including: string[] }
  /** The whole ledger was saved as snapshot `id`, or put back as snapshot `id` had it. */
  | { kind: 'snapshot'; id: string }
  | { kind: 'revert'; id: string }
  /** A mined block: its header time, coinbase output script, the raw transactions after the coinbase, and its hash; `timerDueAtMs` when the block timer mined it. */
  | { kind: 'block'; height: number; hash: string; time: number; coinbaseScript: string; transactions: string[]; timerDueAtMs?: number }
  /** A forked ledger read an address's unspent outputs (its output script, hex) from its upstream, or a transaction by id: kept, so a restart needs no upstream. */
  | { kind: 'upstreamOutputs'; script: string; outputs: Array<{ txid: string; vout: number; value: bigint }> }
  | { kind: 'upstreamTransaction'; txid: string; hex: string; esplora: Record<string, unknown> }
  /** The block timer was set: every `seconds` from `firstDueAtMs` (0: off); `startedWithSeconds` is `--bvm-block-time` of that run. */
  | { kind: 'blockTimer'; seconds: number; firstDueAtMs: number; startedWithSeconds: number }
  /** A wallet created, loaded or unloaded, or a key it handed out (`BvmWallets`). */
  | BvmWalletChange;

/** Where the block timer stood when the journal ended: its period and the next block it owes. */
export interface BvmBlockTimerState {
  seconds: number;
  nextDueAtMs: number;
  startedWithSeconds: number;
}

/**
 * The BVM chain's durability (`--db`): every change its ledger makes is appended to the ledger
 * journal before it is made (`BvmLedger.recordChangesWith`: mempool admissions — replacements
 * included — and drops, pinned block times, mined blocks, reorgs, snapshots and reverts), with the block timer's settings and the node's wallets (created,
 * loaded, unloaded, each key handed out: their coins and history are read from the ledger). At start, genesis is written again
 * at the journaled time and the entries are applied in order through the ledger's own `submit`,
 * `evict`, `setNextBlockTimestamp` and `mine` — nothing listens yet, and input signatures, checked
 * when each transaction was first accepted, are not checked again — so blocks, txids and times
 * come back identical (a block whose hash differs stops the start: the journal and the code
 * disagree).
 */
export class BvmLedgerJournal {
  private timer: BvmBlockTimerState | undefined;
  private timerBlockDueAtMs: number | undefined;

  constructor(private readonly deps: { chainId: number; store: LedgerJournal; ledger: BvmLedger; wallets?: BvmWallets }) {}

  /**
   * Writes genesis (at the journaled time, or `now` for a new journal) with `writeGenesis`, applies
   * the journal, then journals every change from here on. Returns how many entries were applied.
   */
  open(writeGenesis: (time: number) => void, now: number): { applied: number } {
    const { store, chainId, ledger } = this.deps;
    const entries = store.entries<BvmJournalEntry>(chainId);
    const [first, ...rest] = entries;
    if (!first) {
      writeGenesis(now);
      store.append<BvmJournalEntry>(chainId, { kind: 'genesis', time: now, tipHash: ledger.tip!.hash });
    } else {
      if (first.kind !== 'genesis') throw new ChainError(`chain ${chainId} (BVM): its journal does not start with genesis`);
      writeGenesis(first.time);
      if (ledger.tip!.hash !== first.tipHash) {
        throw new ChainError(`chain ${chainId} (BVM): genesis comes out as ${ledger.tip!.hash}, the journal was written on ${first.tipHash} (another mnemonic or account count); start with a new --db`);
      }
      // every transaction in the journal had its signatures checked when it was first accepted
      ledger.withSignaturesTrusted(() => rest.forEach((entry, index) => this.apply(entry, index + 1)));
    }
    ledger.recordChangesWith((change) => store.append<BvmJournalEntry>(chainId, this.entryOf(change)));
    this.deps.wallets?.recordChangesWith((change) => store.append<BvmJournalEntry>(chainId, change));
    return { applied: rest.length };
  }

  /** The block timer as the journal left it (undefined: never set). */
  blockTimer(): BvmBlockTimerState | undefined {
    return this.timer;
  }

  /** Journals a block timer setting (nothing when it is the one in force). */
  recordBlockTimer(setting: { seconds: number; firstDueAtMs: number; startedWithSeconds: number }): void {
    const current = this.timer;
    if (current && current.seconds === setting.seconds && current.nextDueAtMs === setting.firstDueAtMs && current.startedWithSeconds === setting.startedWithSeconds) return;
    if (!current && setting.seconds === 0) return;
    this.deps.store.append<BvmJournalEntry>(this.deps.chainId, { kind: 'blockTimer', ...setting });
    this.timer = { seconds: setting.seconds, nextDueAtMs: setting.firstDueAtMs, startedWithSeconds: setting.startedWithSeconds };
  }

  /** The next block is the timer's, due at `dueAtMs` (journaled with the block itself). */
  timerBlockDue(dueAtMs: number): void {
    this.timerBlockDueAtMs = dueAtMs;
  }

  private entryOf(change: BvmLedgerChange): BvmJournalEntry {
    if (change.kind === 'reorg') return { ...change, coinbaseScript: toHex(change.coinbaseScript) };
    if (change.kind === 'upstreamOutputs') return { ...change, script: toHex(change.script) };
    if (change.kind !== 'block') return change;
    const dueAtMs = this.timerBlockDueAtMs;
    this.timerBlockDueAtMs = undefined;
    if (dueAtMs !== undefined && this.timer) this.timer = { ...this.timer, nextDueAtMs: dueAtMs + this.timer.seconds * 1000 };
    return { ...change, coinbaseScript: toHex(change.coinbaseScript), ...(dueAtMs !== undefined ? { timerDueAtMs: dueAtMs } : {}) };
  }

  private apply(entry: BvmJournalEntry, seq: number): void {
    const { ledger, chainId } = this.deps;
    try {
      switch (entry.kind) {
        case 'genesis':
          throw new Error('a second genesis');
        case 'admit':
          ledger.submit(entry.hex, entry.time);
          return;
        case 'evict':
          ledger.evict(entry.txid);
          return;
        case 'nextBlockTime':
          ledger.setNextBlockTimestamp(entry.time);
          return;
        case 'invalidateTip':
          if (ledger.tip!.hash !== entry.hash) throw new Error(`the tip is ${ledger.tip!.hash}, the journal invalidated ${entry.hash}`);
          ledger.invalidateTip();
          return;
        case 'reconsider':
          ledger.reconsider(entry.hash);
          return;
        case 'reorg':
          ledger.reorg(entry.depth, Buffer.from(entry.coinbaseScript, 'hex'), entry.including, entry.time);
          return;
        case 'snapshot': {
          const id = ledger.snapshot();
          if (id !== entry.id) throw new Error(`the snapshot came out as ${id}, journaled ${entry.id}`);
          return;
        }
        case 'revert':
          if (!ledger.revert(entry.id)) throw new Error(`no snapshot ${entry.id} to revert to`);
          return;
        case 'walletCreated':
        case 'walletLoaded':
        case 'walletUnloaded':
        case 'walletKey':
          this.deps.wallets?.apply(entry);
          return;
        case 'upstreamOutputs':
          ledger.addUpstreamOutputs(Buffer.from(entry.script, 'hex'), entry.outputs);
          return;
        case 'upstreamTransaction':
          ledger.addUpstreamTransaction({ txid: entry.txid, hex: entry.hex, esplora: entry.esplora });
          return;
        case 'blockTimer':
          this.timer = { seconds: entry.seconds, nextDueAtMs: entry.firstDueAtMs, startedWithSeconds: entry.startedWithSeconds };
          return;
        case 'block': {
          // the block's transactions were admitted by earlier entries; any that were not are admitted now
          for (const hex of entry.transactions) ledger.submit(hex, entry.time);
          ledger.setNextBlockTimestamp(entry.time);
          const [mined] = ledger.mine(1, Buffer.from(entry.coinbaseScript, 'hex'));
          if (mined!.hash !== entry.hash || mined!.height !== entry.height) throw new Error(`block ${entry.height} came out as ${mined!.hash} at ${mined!.height}, journaled ${entry.hash}`);
          if (entry.timerDueAtMs !== undefined && this.timer) this.timer = { ...this.timer, nextDueAtMs: entry.timerDueAtMs + this.timer.seconds * 1000 };
          return;
        }
      }
    } catch (error) {
      throw new ChainError(`chain ${chainId} (BVM): journal entry ${seq} (${entry.kind}) cannot be applied: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  }
}
