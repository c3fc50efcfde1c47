import type { Address } from 'viem';
import { ConfigurationError } from '../../errors/IntentsimError';
import type { LedgerJournal } from '../LedgerJournal';
import type { LvmLedger, LvmLedgerChange } from './LvmLedger';

/** Who owned the genesis accounts: the journal is only good for a ledger made for the same ones. */
export interface LvmGenesisOwners {
  deployer: Address;
  solver: Address;
  testAccounts: readonly Address[];
}

/** One entry of the exchange's journal: its genesis first, then every change the ledger made after it. */
export type LvmJournalEntry = { kind: 'genesis'; atMs: number; owners: LvmGenesisOwners } | LvmLedgerChange;

/** The journal does not fit the ledger made at start (another mnemonic or account count, or a ledger that changed its rules). */
export class LvmJournalMismatchError extends ConfigurationError {}

/**
 * Keeps the exchange's ledger durable with `--db` (event sourcing, ARCHITECTURE.md "Durability"):
 * the genesis (its time and owners) is the first entry; every change after it — accounts, API keys,
 * transfers, empty blocks, pinned times, snapshots and reverts, the control plane's account changes, a fork's accounts read from its upstream — is appended synchronously by the
 * ledger's recorder before it takes effect, so before any client, watcher or solver hears of it.
 * At start, a ledger rebuilt from the same genesis applies the entries again through its own
 * methods (nobody listening, nothing journaled twice): the same indexes, balances, nonces, hashes,
 * heights and times come back.
 */
export class LvmLedgerJournal {
  constructor(private readonly deps: { chainId: number; ledger: LvmLedger; store: LedgerJournal; nowMs: () => number }) {}

  /**
   * After genesis: replays the journal when there is one (answers how many changes), else starts
   * it; from then on every change of the ledger is journaled.
   */
  resume(owners: LvmGenesisOwners): number {
    const { chainId, ledger, store } = this.deps;
    let replayed = 0;
    if (store.has(chainId)) {
      const [genesis, ...changes] = store.entries<LvmJournalEntry>(chainId);
      if (genesis?.kind !== 'genesis') throw new LvmJournalMismatchError(`chain ${chainId}: the exchange's journal does not start with its genesis`);
      if (!sameOwners(genesis.owners, owners)) {
        throw new LvmJournalMismatchError(
          `chain ${chainId}: the database's exchange ledger was made for other accounts (another --mnemonic or --accounts); start with those or with a new --db`,
        );
      }
      for (const change of changes) this.apply(change as LvmLedgerChange);
      replayed = changes.length;
    } else {
      store.append<LvmJournalEntry>(chainId, { kind: 'genesis', atMs: this.deps.nowMs(), owners: { ...owners, testAccounts: [...owners.testAccounts] } });
    }
    ledger.recordChangesWith((change) => store.append<LvmJournalEntry>(chainId, change));
    return replayed;
  }

  /** One journaled change, made again by the ledger's own method; what it made must be what was journaled. */
  private apply(change: LvmLedgerChange): void {
    const { ledger } = this.deps;
    switch (change.kind) {
      case 'masterAccount':
        return this.expect(change, ledger.createMasterAccount(change.l1Address).index, change.index);
      case 'subAccount':
        return this.expect(change, ledger.createSubAccount(change.masterIndex).index, change.index);
      case 'fund':
        return ledger.fund(change.index, change.amount);
      case 'apiKey':
        return ledger.issueApiKey(change.index, change.key);
      case 'transfer':
        ledger.pinNextTimestampMs(change.executedAt);
        return this.expect(change, ledger.transfer(change.transfer).hash, change.hash);
      case 'mine':
        return ledger.mine(change.blocks);
      case 'nextTimestamp':
        return ledger.pinNextTimestampMs(change.ms);
      case 'snapshot':
        return this.expect(change, ledger.snapshot(), change.id);
      case 'accountControls':
        return void ledger.controlAccount(change.index, change.controls);
      case 'upstreamAccounts':
        return void ledger.addUpstreamAccounts(change.accounts);
      case 'revert':
        if (!ledger.revert(change.id)) throw new LvmJournalMismatchError(`chain ${this.deps.chainId}: the journal reverts to snapshot ${change.id}, which the ledger does not have`);
        return;
    }
  }

  private expect(change: LvmLedgerChange, made: string | number, journaled: string | number): void {
    if (made !== journaled) throw new LvmJournalMismatchError(`chain ${this.deps.chainId}: replaying the exchange's journal, a ${change.kind} made ${made}, not the journaled ${journaled}`);
  }
}

function sameOwners(a: LvmGenesisOwners, b: LvmGenesisOwners): boolean {
  const same = (x: string, y: string) => x.toLowerCase() === y.toLowerCase();
  return same(a.deployer, b.deployer) && same(a.solver, b.solver) && a.testAccounts.length === b.testAccounts.length && a.testAccounts.every((address, i) => same(address, b.testAccounts[i]!));
}
