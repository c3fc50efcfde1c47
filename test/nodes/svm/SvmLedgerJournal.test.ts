import {
  appendTransactionMessageInstructions,
  blockhash as toBlockhash,
  createNoopSigner,
  createTransactionMessage,
  generateKeyPairSigner,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type KeyPairSigner,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { CHAIN_ID, journalStore, MNEMONIC, openJournaledSvmLedger, slotsAndTransactions, START_MS, transferSol } from '../../support/journaledSvmLedger';
import type { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { deriveSvmAccounts, type SvmAccounts } from '../../../src/nodes/svm/svmAccounts';
import { svmCurrencies } from '../../../src/chains/svm/svmCurrencies';
import { transferInstructions } from '../../../src/chains/svm/svmInstructions';
import type { SvmJournalEntry } from '../../../src/nodes/svm/SvmLedgerJournal';
import { impersonatedSvmWire } from '../../../src/nodes/svm/signSvmWire';
import type { SvmLedger } from '../../../src/nodes/svm/SvmLedger';
import { associatedTokenAccount } from '../../../src/nodes/svm/writeSvmGenesis';

function open(accounts: SvmAccounts, journal: LedgerJournalStore | undefined, clock: VirtualClock, mnemonic = MNEMONIC) {
  return openJournaledSvmLedger(accounts, journal, clock, { mnemonic });
}

/** Everything a client can read of a ledger: every slot's block, every transaction, and the balances of `addresses`. */
function observable(ledger: SvmLedger, addresses: Address[]) {
  return { ...slotsAndTransactions(ledger), accounts: addresses.map((address) => ledger.account(address)) };
}

describe('the SVM ledger journal', () => {
  it('gives back the same slots, blockhashes, times, transactions (failed ones too), cheats and balances from the journal', async () => {
    const accounts = await deriveSvmAccounts(MNEMONIC, 2);
    const journal = journalStore();
    const clock = new VirtualClock({ mode: 'manual', startMs: START_MS });
    const { ledger, replayed } = await open(accounts, journal, clock);
    expect(replayed).toBe(0);

    const user = await generateKeyPairSigner();
    const airdrop = await ledger.airdrop(user.address, 5_000_000_000n, transferSol);
    clock.advance(4_000);
    ledger.mine(3);
    clock.advance(1_000);
    ledger.setNextBlockTimestamp(clock.nowSeconds() + 60);
    ledger.mine(2); // the first at the pinned time, the second back on the clock (never earlier than its parent)
    const blockhashBefore = ledger.latestBlockhash().blockhash;
    const stablecoin = svmCurrencies(CHAIN_ID, accounts.stablecoinMint.address).stablecoin;
    const tokenRecipient = (await generateKeyPairSigner()).address;
    const token = ledger.submit(
      await ledger.signWire(accounts.testAccounts[0]!.signer, await transferInstructions({ from: accounts.testAccounts[0]!.signer, to: tokenRecipient, payer: accounts.testAccounts[0]!.signer, currency: stablecoin, amount: 1_234_567n })),
      { preflight: true },
    );
    // more than the user holds: mined as failed, paying its fee
    const failed = ledger.submit(await ledger.signWire(user, [transferSol(user, tokenRecipient, 50_000_000_000n)]), { preflight: false });
    expect(failed.err).not.toBeNull();
    const cheated = (await generateKeyPairSigner()).address;
    ledger.setLamports(cheated, 42n);
    clock.advance(2_000);
    ledger.mine(1);

    const watched = [user.address, tokenRecipient, cheated, accounts.faucet.address, accounts.testAccounts[0]!.address, await associatedTokenAccount(tokenRecipient, accounts.stablecoinMint.address)];
    const before = observable(ledger, watched);
    expect(before.transactions.map((record) => record.signature)).toEqual([airdrop.signature, token.signature, failed.signature]);
    const kinds = journal.entries<SvmJournalEntry>(CHAIN_ID).map((entry) => entry.kind);
    expect(kinds).toEqual(['genesis', 'slot', 'emptySlots', 'emptySlots', 'slot', 'slot', 'account', 'emptySlots']);

    // a later process: its clock is hours on, the chain is what it was
    const later = new VirtualClock({ mode: 'manual', startMs: START_MS + 6 * 3_600_000 });
    const reopened = await open(accounts, journal, later);
    expect(reopened.replayed).toBe(kinds.length - 1);
    expect(observable(reopened.ledger, watched)).toEqual(before);
    expect(reopened.ledger.balance(cheated)).toBe(42n);
    expect(reopened.ledger.transaction(failed.signature)?.err).toEqual(failed.err);
    // a blockhash a client fetched before the restart is still good within its 150 slots
    expect(reopened.ledger.isBlockhashValid(blockhashBefore)).toBe(true);
    const afterRestart = reopened.ledger.submit(await signOnBlockhash(reopened.ledger, user, blockhashBefore, tokenRecipient), { preflight: true });
    expect(afterRestart.err).toBeNull();
    expect(afterRestart.slot).toBe(before.slot + 1n);
    expect(afterRestart.blockTime).toBe(later.nowSeconds());
    // the same transaction again is refused, as before the restart
    expect(() => reopened.ledger.submit(airdrop.wire, { preflight: false })).toThrow(/already been processed/i);

    // the journal goes on from where it was: a third start has the slot mined after the second
    const third = await open(accounts, journal, later);
    expect(third.ledger.currentSlot()).toBe(afterRestart.slot);
    expect(third.ledger.transaction(afterRestart.signature)?.postBalances).toEqual(afterRestart.postBalances);
  });

  it("runs a transaction of a user whose key it does not hold only with sigVerify off (a replay's deposit), journaled so: a restart runs it the same way", async () => {
    const accounts = await deriveSvmAccounts(MNEMONIC, 1);
    const journal = journalStore();
    const clock = new VirtualClock({ mode: 'manual', startMs: START_MS });
    const { ledger } = await open(accounts, journal, clock);
    const user = (await generateKeyPairSigner()).address;
    const recipient = (await generateKeyPairSigner()).address;
    ledger.setLamports(user, 3_000_000_000n);
    const payment = () => impersonatedSvmWire(user, [getTransferSolInstruction({ source: createNoopSigner(user), destination: recipient, amount: 1_000_000_000n })], ledger.latestBlockhash());

    // checked as every transaction is, its stand-in signature is refused and nothing is mined
    const slot = ledger.currentSlot();
    expect(() => ledger.submit(payment(), { preflight: true })).toThrow(/signature/i);
    expect(ledger.currentSlot()).toBe(slot);
    const impersonated = ledger.submit(payment(), { preflight: false, sigVerify: false });
    expect(impersonated.err).toBeNull();
    expect(ledger.balance(recipient)).toBe(1_000_000_000n);
    // the check is off for that one transaction only
    expect(() => ledger.submit(impersonatedSvmWire(user, [getTransferSolInstruction({ source: createNoopSigner(user), destination: recipient, amount: 7n })], ledger.latestBlockhash()), { preflight: true })).toThrow(/signature/i);
    expect(journal.entries<SvmJournalEntry>(CHAIN_ID).at(-1)).toMatchObject({ kind: 'slot', slot: impersonated.slot, failed: false, unverified: true });

    const reopened = await open(accounts, journal, new VirtualClock({ mode: 'manual', startMs: START_MS + 60_000 }));
    expect(reopened.ledger.transaction(impersonated.signature)?.err).toBeNull();
    expect(reopened.ledger.balance(recipient)).toBe(1_000_000_000n);
    expect(reopened.ledger.balance(user)).toBe(ledger.balance(user));
  });

  it('journals mine(count) as one entry with runs of equal times', async () => {
    const accounts = await deriveSvmAccounts(MNEMONIC, 1);
    const journal = journalStore();
    const clock = new VirtualClock({ mode: 'manual', startMs: START_MS });
    const { ledger } = await open(accounts, journal, clock);
    ledger.mine(500);
    expect(journal.entries<SvmJournalEntry>(CHAIN_ID).slice(1)).toEqual([{ kind: 'emptySlots', firstSlot: 1n, blockTimes: [[START_MS / 1000, 500]] }]);
    const reopened = await open(accounts, journal, new VirtualClock({ mode: 'manual', startMs: START_MS + 10_000 }));
    expect(reopened.ledger.currentSlot()).toBe(500n);
    expect(reopened.ledger.block(500n)).toEqual(ledger.block(500n));
  });

  it('without a journal, every start is genesis at the clock’s time; a journal of another mnemonic, or one that runs differently, is refused', async () => {
    const accounts = await deriveSvmAccounts(MNEMONIC, 1);
    const clock = new VirtualClock({ mode: 'manual', startMs: START_MS });
    const first = await open(accounts, undefined, clock);
    await first.ledger.airdrop((await generateKeyPairSigner()).address, 1_000_000_000n, transferSol);
    clock.advance(60_000);
    const second = await open(accounts, undefined, clock);
    expect(second.ledger.currentSlot()).toBe(0n);
    expect([...second.ledger.transactions()]).toEqual([]);
    expect(second.ledger.block(0n)!.blockTime).toBe(START_MS / 1000 + 60);

    const journal = journalStore();
    const journaled = await open(accounts, journal, clock);
    await expect(open(accounts, journal, clock, 'legal winner thank year wave sausage worth useful legal winner thank yellow')).rejects.toThrow(/another mnemonic/);

    // a transaction that comes out another way when applied again (another genesis, another runtime) is refused, not kept
    await journaled.ledger.airdrop((await generateKeyPairSigner()).address, 1_000_000_000n, transferSol);
    const altered = journalStore();
    for (const entry of journal.entries<SvmJournalEntry>(CHAIN_ID)) altered.append(CHAIN_ID, entry.kind === 'slot' ? { ...entry, failed: !entry.failed } : entry);
    await expect(open(accounts, altered, clock)).rejects.toThrow(/succeeded when applied again, but failed when it was mined/);
  });
});

/** A transfer signed on a blockhash the client fetched earlier. */
async function signOnBlockhash(ledger: SvmLedger, payer: KeyPairSigner, blockhash: string, to: Address): Promise<Uint8Array> {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: toBlockhash(blockhash), lastValidBlockHeight: ledger.currentSlot() + 150n }, m),
    (m) => appendTransactionMessageInstructions([transferSol(payer, to, 1_000_000_000n)], m),
  );
  return new Uint8Array(getTransactionEncoder().encode(await signTransactionMessageWithSigners(message)));
}
