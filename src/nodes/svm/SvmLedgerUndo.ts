import { address, lamports, type Address, type MaybeEncodedAccount } from '@solana/kit';
import type { SvmCompiledMessage } from './decodeSvmTransaction';
import { SYSTEM_PROGRAM } from './svmProgramIds';

/** The loaders: an account they own (a program, its programdata) is also in LiteSVM's program cache, which an undo does not reach. */
const LOADERS = new Set<string>([
  'NativeLoader1111111111111111111111111111111',
  'BPFLoader1111111111111111111111111111111111',
  'BPFLoader2111111111111111111111111111111111',
  'BPFLoaderUpgradeab1e11111111111111111111111',
  'LoaderV411111111111111111111111111111111111',
].map((id) => address(id)));

type UndoEntry =
  /** An account's state before its first write since the last mark (`exists: false`: it had none). */
  | { kind: 'account'; before: MaybeEncodedAccount }
  /** An address the ledger started answering for itself. */
  | { kind: 'local'; address: Address };

/** Where an undo comes back to: the log's length at a mark, in the log of one LiteSVM instance. */
export interface SvmUndoPosition {
  position: number;
  generation: number;
}

/**
 * What the SVM ledger changed since a mark, so a revert costs what changed rather than a rebuild
 * from the journal: each account's pre-image, saved before its first write after the latest mark
 * (a transaction's writable accounts, a cheat, an account read from a fork's upstream), and each
 * address the ledger began answering for. Undoing writes the pre-images back newest first (an
 * account that had none is emptied: LiteSVM drops an account of 0 lamports) and forgets those
 * addresses. Nothing is logged until the first mark; `reset` (the ledger took another LiteSVM,
 * or no mark is held) empties the log and makes every earlier position unusable.
 */
export class SvmLedgerUndo {
  private entries: UndoEntry[] = [];
  private readonly savedSinceMark = new Set<string>();
  private recording = false;
  private generation = 0;

  constructor(private readonly read: (address: Address) => MaybeEncodedAccount) {}

  /** From now on changes are logged; an undo to the answer comes back to the state now. */
  mark(): SvmUndoPosition {
    this.recording = true;
    this.savedSinceMark.clear();
    return { position: this.entries.length, generation: this.generation };
  }

  /** Forgets the log; earlier positions can no longer be undone to, and nothing is logged until the next mark. */
  reset(): void {
    this.entries = [];
    this.savedSinceMark.clear();
    this.recording = false;
    this.generation++;
  }

  /** Before `addresses` are written: saves the pre-image of each not saved since the latest mark. */
  beforeWrite(addresses: Iterable<Address>): void {
    if (!this.recording) return;
    for (const key of addresses) {
      if (this.savedSinceMark.has(key)) continue;
      this.savedSinceMark.add(key);
      this.entries.push({ kind: 'account', before: this.read(key) });
    }
  }

  /** The ledger began answering for `address` itself (it did not before). */
  addedLocal(key: Address): void {
    if (this.recording) this.entries.push({ kind: 'local', address: key });
  }

  /**
   * Whether undoing to `to` gives exactly the state then: the log is the one `to` was taken in,
   * and no program (an account a loader owns, or an executable one) was written since, as
   * LiteSVM's program cache would keep what the undo takes back.
   */
  canUndoTo(to: SvmUndoPosition): boolean {
    if (to.generation !== this.generation || to.position > this.entries.length) return false;
    for (let index = to.position; index < this.entries.length; index++) {
      const entry = this.entries[index]!;
      if (entry.kind !== 'account') continue;
      if (isProgramAccount(entry.before) || isProgramAccount(this.read(entry.before.address))) return false;
    }
    return true;
  }

  /** Writes back every pre-image saved since `to`, newest first, and forgets the addresses taken since (`forgetLocal`); the log is then `to`'s. */
  undoTo(to: SvmUndoPosition, write: (account: MaybeEncodedAccount & { exists: true }) => void, forgetLocal: (key: Address) => void): void {
    for (let index = this.entries.length - 1; index >= to.position; index--) {
      const entry = this.entries[index]!;
      if (entry.kind === 'local') forgetLocal(entry.address);
      else write(entry.before.exists ? entry.before : emptyAccount(entry.before.address));
    }
    this.entries.length = to.position;
    // a later write of one saved before `to` is saved again: a pre-image too many is harmless, one missing is not
    this.savedSinceMark.clear();
  }
}

function isProgramAccount(account: MaybeEncodedAccount): boolean {
  return account.exists && (account.executable || LOADERS.has(account.programAddress));
}

function emptyAccount(key: Address): MaybeEncodedAccount & { exists: true } {
  return { exists: true, address: key, lamports: lamports(0n), programAddress: SYSTEM_PROGRAM, executable: false, data: new Uint8Array(0), space: 0n };
}

/** The accounts a message may write: its writable signers and non-signers, then the writable ones loaded from lookup tables. */
export function writableAccountKeys(message: SvmCompiledMessage, loadedWritable: readonly Address[]): Address[] {
  const { numSignerAccounts, numReadonlySignerAccounts, numReadonlyNonSignerAccounts } = message.header;
  const statics = message.staticAccounts;
  const writable = statics.filter((_, index) => (index < numSignerAccounts ? index < numSignerAccounts - numReadonlySignerAccounts : index < statics.length - numReadonlyNonSignerAccounts));
  return [...writable, ...loadedWritable];
}
