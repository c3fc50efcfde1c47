import { ChainError } from '../../errors/IntentsimError';
import type { LedgerJournal } from '../LedgerJournal';
import type { SvmLedger, SvmLedgerMark } from './SvmLedger';
import type { SvmJournalEntry } from './svmJournalEntry';

type EmptySlots = Extract<SvmJournalEntry, { kind: 'emptySlots' }>;
type Rollback = Extract<SvmJournalEntry, { kind: 'rollback' }>;

/** The entries a journal stands for once each of its rollbacks has left out what it rolled back. */
export function effectiveSvmJournal(entries: readonly SvmJournalEntry[]): SvmJournalEntry[] {
  let effective: SvmJournalEntry[] = [];
  for (const entry of entries) {
    if (entry.kind === 'rollback') effective = afterRollback(effective, entry);
    else effective.push(entry);
  }
  return effective;
}

function afterRollback(entries: readonly SvmJournalEntry[], rollback: Rollback): SvmJournalEntry[] {
  return [...entries.slice(0, rollback.keep), ...(rollback.partial ? [rollback.partial] : []), { kind: 'fork', fork: rollback.fork }];
}

/** The first `count` slots of a run of empty slots. */
function firstEmptySlots(entry: EmptySlots, count: number): EmptySlots {
  const blockTimes: Array<[number, number]> = [];
  let left = count;
  for (const [blockTime, runLength] of entry.blockTimes) {
    if (left === 0) break;
    const taken = Math.min(left, runLength);
    blockTimes.push([blockTime, taken]);
    left -= taken;
  }
  return { kind: 'emptySlots', firstSlot: entry.firstSlot, blockTimes };
}

function emptySlotCount(entry: EmptySlots): number {
  return entry.blockTimes.reduce((sum, [, count]) => sum + count, 0);
}

/**
 * The SVM ledger's history, and how it goes back in it. LiteSVM cannot rewind, but the ledger's
 * journal says how to build it again: a rollback is a replay of fewer slots (genesis again, then
 * the entries up to the target) whose state the live ledger takes (`SvmLedger.adoptStateOf`), so
 * the RPC, its subscribers and the adapter keep the same ledger object. What was rolled back is
 * gone (there is no mempool to return it to); slots mined afterwards are a new fork, with new
 * blockhashes. With `--db` the rollback is journaled (appended, `effectiveSvmJournal` applies it
 * at the next start), so a restart comes back the same. Snapshots are entry counts with the
 * ledger's mark and fork, answered as hex ids like Anvil's (`0x0`, `0x1`, …); a revert undoes what
 * changed since the mark (`SvmLedger.revertToMark`, milliseconds) and rebuilds only where that
 * cannot be exact, back on the snapshot's fork (the blockhashes it mines next are those it would
 * have mined: the world of the snapshot); it is journaled as the same rollback either way. A revert drops its snapshot and the
 * later ones, and they are kept in memory only.
 */
export class SvmLedgerHistory {
  private entries: SvmJournalEntry[];
  private fork: number;
  private nextSnapshotId = 0;
  private readonly snapshots = new Map<number, { entries: number; mark: SvmLedgerMark; fork: number }>();

  constructor(
    private readonly deps: {
      chainId: number;
      ledger: SvmLedger;
      /** The journal's entries after genesis, rollbacks applied (`effectiveSvmJournal`). */
      entries: SvmJournalEntry[];
      journal: LedgerJournal | undefined;
      /** A new ledger: genesis, then `entries` applied. */
      rebuild: (entries: readonly SvmJournalEntry[]) => Promise<SvmLedger>;
    },
  ) {
    this.entries = [...deps.entries];
    this.fork = Math.max(0, ...this.entries.map((entry) => (entry.kind === 'fork' ? entry.fork : 0)));
  }

  /** One change of the ledger: kept for later rollbacks, and journaled with `--db`. */
  record(entry: SvmJournalEntry): void {
    this.entries.push(entry);
    this.deps.journal?.append(this.deps.chainId, entry);
  }

  /** Rolls back the last `slots` slots (their transactions are gone); answers the slot the ledger is back at. */
  async rollBack(slots: number): Promise<bigint> {
    const target = this.deps.ledger.currentSlot() - BigInt(slots);
    if (slots < 1 || target < 0n) throw new ChainError(`chain ${this.deps.chainId}: cannot roll back ${slots} slot(s) from slot ${this.deps.ledger.currentSlot()} (genesis stays)`);
    const index = this.entries.findIndex((entry) => (entry.kind === 'slot' && entry.slot > target) || (entry.kind === 'emptySlots' && entry.firstSlot + BigInt(emptySlotCount(entry)) - 1n > target));
    const cut = this.entries[index];
    const partial = cut?.kind === 'emptySlots' && cut.firstSlot <= target ? firstEmptySlots(cut, Number(target - cut.firstSlot + 1n)) : undefined;
    await this.cutTo(index === -1 ? this.entries.length : index, partial);
    return this.deps.ledger.currentSlot();
  }

  /** A reorg of `depth`: the last `depth` slots rolled back, then as many new empty slots mined. */
  async reorg(depth: number): Promise<void> {
    await this.rollBack(depth);
    this.deps.ledger.mine(depth);
  }

  /** Saves the ledger's state; `revert(id)` comes back to it. */
  snapshot(): string {
    const id = this.nextSnapshotId++;
    this.snapshots.set(id, { entries: this.entries.length, mark: this.deps.ledger.mark(), fork: this.fork });
    return `0x${id.toString(16)}`;
  }

  /**
   * Comes back to snapshot `id` (dropping it and every later one); answers the slot the ledger is
   * back at. The fork too is the snapshot's: the slots mined next get the blockhashes they get
   * without the detour (so a transaction signed on them, a refund's, has the same signature), as a
   * world `reset()` gives the start's world. Ids keep counting, as Anvil's do after `evm_revert`.
   */
  async revert(id: string): Promise<bigint> {
    const number = /^0x[0-9a-fA-F]{1,12}$/.test(id) ? Number.parseInt(id.slice(2), 16) : -1;
    const snapshot = this.snapshots.get(number);
    if (snapshot === undefined) throw new ChainError(`chain ${this.deps.chainId}: no snapshot ${id}`);
    const rollback: Rollback = { kind: 'rollback', keep: snapshot.entries, fork: snapshot.fork };
    if (this.deps.ledger.revertToMark(snapshot.mark, rollback.fork)) this.rolledBack(rollback);
    else await this.cutTo(snapshot.entries, undefined, snapshot.fork);
    for (const later of [...this.snapshots.keys()]) if (later >= number) this.snapshots.delete(later);
    if (this.snapshots.size === 0) this.deps.ledger.forgetMarks();
    return this.deps.ledger.currentSlot();
  }

  /** The ledger becomes the first `keep` entries (then `partial`) on `fork` (default: a new one); later snapshots go. */
  private async cutTo(keep: number, partial: EmptySlots | undefined, fork = this.fork + 1): Promise<void> {
    const rollback: Rollback = { kind: 'rollback', keep, ...(partial ? { partial } : {}), fork };
    const kept = afterRollback(this.entries, rollback);
    const rebuilt = await this.deps.rebuild(kept);
    this.rolledBack(rollback);
    this.deps.ledger.adoptStateOf(rebuilt);
  }

  /** The history after `rollback` (journaled): its entries, its fork, the snapshots it keeps. */
  private rolledBack(rollback: Rollback): void {
    this.deps.journal?.append(this.deps.chainId, rollback);
    this.fork = rollback.fork;
    this.entries = afterRollback(this.entries, rollback);
    for (const [id, snapshot] of this.snapshots) if (snapshot.entries > rollback.keep) this.snapshots.delete(id);
  }
}
