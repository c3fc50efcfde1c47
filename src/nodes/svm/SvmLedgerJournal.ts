import { address, lamports, type Address, type EncodedAccount } from '@solana/kit';
import { ChainError } from '../../errors/IntentsimError';
import type { LedgerJournal } from '../LedgerJournal';
import { SvmLedger, type SvmBlock, type SvmLedgerOptions, type SvmLedgerRecorder } from './SvmLedger';
import { SvmLedgerHistory, effectiveSvmJournal } from './SvmLedgerHistory';
import type { SvmJournalEntry } from './svmJournalEntry';

export type { SvmJournalEntry } from './svmJournalEntry';

/**
 * Writes each change the SVM ledger makes after genesis down as a journal entry, to `append`
 * (`SvmLedgerHistory`: kept in memory for rollbacks and, with `--db`, appended to the ledger
 * journal before the ledger answers or tells a listener; the store writes synchronously, so a
 * SIGKILL loses nothing a client was told). `openSvmLedger` rebuilds the ledger from it.
 */
export class SvmLedgerJournal implements SvmLedgerRecorder {
  constructor(private readonly append: (entry: SvmJournalEntry) => void) {}

  transactionSlot(block: SvmBlock, wire: Uint8Array, failed: boolean, sigVerify: boolean): void {
    this.append({ kind: 'slot', slot: block.slot, blockTime: block.blockTime, transaction: Buffer.from(wire).toString('base64'), failed, ...(sigVerify ? {} : { unverified: true }) });
  }

  emptySlots(blocks: readonly SvmBlock[]): void {
    if (blocks.length === 0) return;
    const blockTimes: Array<[number, number]> = [];
    for (const block of blocks) {
      const last = blockTimes.at(-1);
      if (last && last[0] === block.blockTime) last[1]++;
      else blockTimes.push([block.blockTime, 1]);
    }
    this.append({ kind: 'emptySlots', firstSlot: blocks[0]!.slot, blockTimes });
  }

  accountWritten(account: EncodedAccount): void {
    this.append({ kind: 'account', ...journaledAccount(account) });
  }

  upstreamAccounts(found: readonly EncodedAccount[], absent: readonly Address[]): void {
    this.append({ kind: 'upstreamAccounts', accounts: found.map(journaledAccount), absent: [...absent] });
  }
}

type JournaledAccount = Omit<Extract<SvmJournalEntry, { kind: 'account' }>, 'kind'>;

function journaledAccount(account: EncodedAccount): JournaledAccount {
  return {
    address: account.address,
    lamports: account.lamports,
    programAddress: account.programAddress,
    executable: account.executable,
    space: account.space,
    data: Buffer.from(account.data).toString('base64'),
  };
}

function accountOf(entry: JournaledAccount): EncodedAccount {
  return {
    address: address(entry.address),
    lamports: lamports(entry.lamports),
    programAddress: address(entry.programAddress),
    executable: entry.executable,
    space: entry.space,
    data: new Uint8Array(Buffer.from(entry.data, 'base64')),
  };
}

/**
 * The chain's ledger: genesis written by `writeGenesis`; with a journal that has entries, genesis
 * at the journaled time and then every journaled change applied again, in order, through the
 * ledger's own methods (a slot's transaction is submitted without preflight at its slot's time),
 * which gives back the same slots, blockhashes, signatures, results and balances; a journaled
 * rollback leaves out what it rolled back (`effectiveSvmJournal`). The ledger is new, so no
 * listener hears the replay; its history (`SvmLedgerHistory`, which writes the journal from now
 * on and rolls the ledger back) is attached after it (nothing is written twice).
 */
export async function openSvmLedger(params: {
  chainId: number;
  journal: LedgerJournal | undefined;
  ledger: Omit<SvmLedgerOptions, 'genesisTime'>;
  writeGenesis: (ledger: SvmLedger) => Promise<void>;
}): Promise<{ ledger: SvmLedger; replayed: number; history: SvmLedgerHistory }> {
  const { chainId, journal } = params;
  const entries = journal?.entries<SvmJournalEntry>(chainId) ?? [];
  const genesis = entries[0];
  if (genesis && genesis.kind !== 'genesis') throw new ChainError(`chain ${chainId}: its ledger journal does not start with genesis`);
  const ledger = new SvmLedger({ ...params.ledger, ...(genesis ? { genesisTime: genesis.blockTime } : {}) });
  await params.writeGenesis(ledger);
  const genesisBlock = ledger.block(0n)!;
  if (!genesis) {
    journal?.append<SvmJournalEntry>(chainId, { kind: 'genesis', blockTime: genesisBlock.blockTime, blockhash: genesisBlock.blockhash });
  } else if (genesis.blockhash !== genesisBlock.blockhash) {
    throw new ChainError(`chain ${chainId}: the database's SVM ledger journal was written with another mnemonic (genesis blockhash ${genesis.blockhash}, now ${genesisBlock.blockhash}); start with the same mnemonic or another --db`);
  }
  const effective = effectiveSvmJournal(entries.slice(1));
  applySvmJournal(ledger, effective, `chain ${chainId}: ledger journal entry`);
  const history = new SvmLedgerHistory({
    chainId,
    ledger,
    entries: effective,
    journal,
    rebuild: async (kept) => {
      const rebuilt = new SvmLedger({ ...params.ledger, genesisTime: genesisBlock.blockTime });
      await params.writeGenesis(rebuilt);
      applySvmJournal(rebuilt, kept, `chain ${chainId}: rolling back, entry`);
      return rebuilt;
    },
  });
  ledger.setRecorder(new SvmLedgerJournal((entry) => history.record(entry)));
  return { ledger, replayed: entries.length - (genesis ? 1 : 0), history };
}

/** Applies journal entries (after genesis, rollbacks already left out) to a ledger, in order. */
function applySvmJournal(ledger: SvmLedger, entries: readonly SvmJournalEntry[], where: string): void {
  entries.forEach((entry, index) => applyEntry(ledger, entry, `${where} ${index + 1}`));
}

function applyEntry(ledger: SvmLedger, entry: SvmJournalEntry, where: string): void {
  switch (entry.kind) {
    case 'genesis':
      throw new ChainError(`${where} is a second genesis`);
    case 'slot': {
      expectNextSlot(ledger, entry.slot, where);
      ledger.setNextBlockTimestamp(entry.blockTime);
      let failed: boolean;
      try {
        failed = ledger.submit(new Uint8Array(Buffer.from(entry.transaction, 'base64')), { preflight: false, sigVerify: entry.unverified !== true }).err !== null;
      } catch (error) {
        throw new ChainError(`${where} (slot ${entry.slot}) cannot be applied again: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
      // the same state runs a transaction the same way; another outcome means another genesis (account count, runtime)
      if (failed !== entry.failed) throw new ChainError(`${where} (slot ${entry.slot}) ${failed ? 'failed' : 'succeeded'} when applied again, but ${entry.failed ? 'failed' : 'succeeded'} when it was mined`);
      return;
    }
    case 'emptySlots':
      expectNextSlot(ledger, entry.firstSlot, where);
      for (const [blockTime, count] of entry.blockTimes) {
        for (let i = 0; i < count; i++) {
          ledger.setNextBlockTimestamp(blockTime);
          ledger.mine(1);
        }
      }
      return;
    case 'fork':
      ledger.setFork(entry.fork);
      return;
    case 'rollback':
      throw new ChainError(`${where} is a rollback left in the entries to apply`);
    case 'account':
      ledger.setAccount(accountOf(entry));
      return;
    case 'upstreamAccounts':
      ledger.takeUpstreamAccounts(entry.accounts.map(accountOf), entry.absent.map((key) => address(key)));
      return;
  }
}

function expectNextSlot(ledger: SvmLedger, slot: bigint, where: string): void {
  const next = ledger.currentSlot() + 1n;
  if (slot !== next) throw new ChainError(`${where} is slot ${slot}, but the ledger's next slot is ${next}`);
}
