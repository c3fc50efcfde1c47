import type { Address, TransactionSigner } from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { afterEach } from 'vitest';
import type { VirtualClock } from '../../src/clock/VirtualClock';
import { openDatabase } from '../../src/store/openDatabase';
import { LedgerJournalStore } from '../../src/store/LedgerJournalStore';
import type { SvmAccounts } from '../../src/nodes/svm/svmAccounts';
import { openSvmLedger } from '../../src/nodes/svm/SvmLedgerJournal';
import type { SvmLedger } from '../../src/nodes/svm/SvmLedger';
import { writeSvmGenesis } from '../../src/nodes/svm/writeSvmGenesis';

/** The SVM ledger's tests over its journal (SvmLedgerJournal, SvmLedgerUndo): one mnemonic, chain and start time. */
export const MNEMONIC = 'test test test test test test test test test test test junk';
export const CHAIN_ID = 792703809;
export const START_MS = Date.UTC(2026, 0, 1);

export const transferSol = (from: TransactionSigner, to: Address, amount: bigint) => getTransferSolInstruction({ source: from, destination: to, amount });

const databases: Array<ReturnType<typeof openDatabase>> = [];
afterEach(() => databases.splice(0).forEach((db) => db.close()));

/** A journal in an in-memory database, closed after the test. */
export function journalStore(): LedgerJournalStore {
  const db = openDatabase(':memory:');
  databases.push(db);
  return new LedgerJournalStore(db);
}

/** The ledger as the SVM node opens it: from `journal` when it holds entries, else genesis (`writeGenesis`, default the node's accounts and mints) journaled. */
export function openJournaledSvmLedger(
  accounts: SvmAccounts,
  journal: LedgerJournalStore | undefined,
  clock: VirtualClock,
  options: { mnemonic?: string; writeGenesis?: (ledger: SvmLedger) => Promise<void> } = {},
) {
  return openSvmLedger({
    chainId: CHAIN_ID,
    journal,
    ledger: { clock, seed: `${options.mnemonic ?? MNEMONIC}:${CHAIN_ID}`, faucet: accounts.faucet.signer },
    writeGenesis: options.writeGenesis ?? ((ledger) => writeSvmGenesis(ledger, accounts)),
  });
}

/** Every slot's block and every transaction kept (without its decoded form): what a client reads of a ledger's history. */
export function slotsAndTransactions(ledger: SvmLedger) {
  const blocks = [];
  for (let slot = 0n; slot <= ledger.currentSlot(); slot++) blocks.push(ledger.block(slot));
  const transactions = [...ledger.transactions()].map(({ decoded: _decoded, ...record }) => record);
  return { slot: ledger.currentSlot(), blocks, transactions };
}
