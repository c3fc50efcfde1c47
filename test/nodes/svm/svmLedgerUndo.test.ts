import { generateKeyPairSigner, lamports, type Address, type EncodedAccount, type KeyPairSigner } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { CHAIN_ID, journalStore, MNEMONIC, openJournaledSvmLedger, slotsAndTransactions, START_MS, transferSol } from '../../support/journaledSvmLedger';
import type { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { deriveSvmAccounts, type SvmAccounts } from '../../../src/nodes/svm/svmAccounts';
import { svmCurrencies } from '../../../src/chains/svm/svmCurrencies';
import { transferInstructions } from '../../../src/chains/svm/svmInstructions';
import type { SvmLedger } from '../../../src/nodes/svm/SvmLedger';
import { associatedTokenAccount, writeSvmGenesis } from '../../../src/nodes/svm/writeSvmGenesis';
import { writeSvmAggregatorGenesis } from '../../../src/nodes/svm/writeSvmAggregatorGenesis';
import { SVM_MARKET_POOLS, svmVenueProgram } from '../../../src/nodes/svm/svmAggregatorMarket';
import { SYSTEM_PROGRAM, TOKEN_PROGRAM } from '../../../src/nodes/svm/svmProgramIds';

// a snapshot revert undoes what changed (SvmLedgerUndo) instead of rebuilding: it must give exactly what the rebuild gives
function opened(accounts: SvmAccounts, journal: LedgerJournalStore, clock: VirtualClock) {
  return openJournaledSvmLedger(accounts, journal, clock, {
    writeGenesis: async (ledger) => {
      await writeSvmGenesis(ledger, accounts);
      await writeSvmAggregatorGenesis(ledger, accounts);
    },
  });
}

/** Every account of the system and token programs and the pool venues, the `extra` ones, and every slot and transaction: what a client could read. */
function world(ledger: SvmLedger, extra: Address[]) {
  const owners = [SYSTEM_PROGRAM, TOKEN_PROGRAM, ...new Set(SVM_MARKET_POOLS.map((pool) => svmVenueProgram(pool.venue)))];
  const accounts = owners
    .flatMap((owner) => ledger.svm.getProgramAccounts(owner))
    .filter((account) => !isLiteSvmAirdropAccount(account))
    .sort((a, b) => a.address.localeCompare(b.address));
  const { slot, blocks, transactions } = slotsAndTransactions(ledger);
  return { slot, latest: ledger.latestBlockhash(), blocks, transactions, accounts, extra: extra.map((key) => ledger.account(key)), local: extra.map((key) => ledger.answersFor(key)) };
}

/** LiteSVM's own airdrop keypair: a random one per LiteSVM instance with a million SOL, never used by the ledger (a rebuilt ledger has another). */
function isLiteSvmAirdropAccount(account: EncodedAccount): boolean {
  return account.programAddress === SYSTEM_PROGRAM && account.lamports === 1_000_000n * 1_000_000_000n && account.data.length === 0;
}

async function setUp() {
  const accounts = await deriveSvmAccounts(MNEMONIC, 2);
  const journal = journalStore();
  const clock = new VirtualClock({ mode: 'manual', startMs: START_MS });
  const { ledger, history } = await opened(accounts, journal, clock);
  const user = await generateKeyPairSigner();
  await ledger.airdrop(user.address, 5_000_000_000n, transferSol);
  clock.advance(4_000);
  ledger.mine(2);
  return { accounts, journal, clock, ledger, history, user };
}

/** After the snapshot: a created account, a token transfer creating an associated token account, a failed transaction, a cheat on a pool's state, empty slots. */
async function changeEverything(ledger: SvmLedger, accounts: SvmAccounts, user: KeyPairSigner, clock: VirtualClock) {
  const solver = accounts.testAccounts[1]!.signer;
  const created = (await generateKeyPairSigner()).address;
  const tokenRecipient = (await generateKeyPairSigner()).address;
  const stablecoin = svmCurrencies(CHAIN_ID, accounts.stablecoinMint.address).stablecoin;
  await ledger.airdrop(created, 1_000_000_000n, transferSol);
  clock.advance(1_000);
  ledger.submit(await ledger.signWire(solver, await transferInstructions({ from: solver, to: tokenRecipient, payer: solver, currency: stablecoin, amount: 1_234_567n })), { preflight: true });
  ledger.submit(await ledger.signWire(user, [transferSol(user, created, 50_000_000_000n)]), { preflight: false });
  const pool = SVM_MARKET_POOLS[0]!;
  const state = ledger.account(pool.state);
  if (!state.exists) throw new Error('the pool has no state account');
  ledger.setAccount({ ...state, data: new Uint8Array(state.data.length).fill(7) });
  ledger.setLamports(user.address, 1n);
  ledger.mine(3);
  return { created, tokenRecipient, tokenAccount: await associatedTokenAccount(tokenRecipient, accounts.stablecoinMint.address), pool: pool.state, solver: solver.address };
}

describe('the SVM ledger reverts a snapshot by undoing what changed', () => {
  it('puts back every account touched (user, solver, token accounts, a program’s), the slots, the transactions; the next transaction runs as on a ledger rebuilt from the journal', async () => {
    const { accounts, journal, clock, ledger, history, user } = await setUp();
    const probe = (await generateKeyPairSigner()).address;
    const before = world(ledger, [user.address, probe]);
    const svm = ledger.svm;
    const snapshot = history.snapshot();
    const touched = await changeEverything(ledger, accounts, user, clock);
    const watched = [user.address, probe, touched.created, touched.tokenRecipient, touched.tokenAccount, touched.pool, touched.solver];
    expect(world(ledger, [user.address, probe])).not.toEqual(before);

    await history.revert(snapshot);
    expect(ledger.svm).toBe(svm); // undone in place, not rebuilt
    const after = world(ledger, watched);
    expect({ ...after, extra: after.extra.slice(0, 2), local: after.local.slice(0, 2) }).toEqual(before);
    expect(after.extra.slice(2).filter((account) => account.exists).map((account) => account.address)).toEqual([touched.pool, touched.solver]);
    expect(ledger.account(touched.pool)).toEqual({ exists: true, ...before.accounts.find((account) => account.address === touched.pool) });
    expect(ledger.account(touched.solver)).toEqual({ exists: true, ...before.accounts.find((account) => account.address === touched.solver) });

    // the reference: a ledger rebuilt from the journal (the rollback journaled) is the same world
    const rebuilt = await opened(accounts, journal, clock);
    expect(world(rebuilt.ledger, watched)).toEqual(after);
    // and the next transaction runs the same on both, to the byte
    const next = await ledger.signWire(user, [transferSol(user, touched.created, 2_000_000n)]);
    expect(ledger.submit(next, { preflight: true })).toEqual(rebuilt.ledger.submit(next, { preflight: true }));
    expect(world(ledger, watched)).toEqual(world(rebuilt.ledger, watched));
  });

  it('a revert goes back to the snapshot’s fork: the next slot has the blockhash, and a transaction signed on it the signature, it has without the detour (undone or rebuilt)', async () => {
    const { accounts, clock, ledger, history, user } = await setUp();
    const recipient = (await generateKeyPairSigner()).address;
    const mineAndSend = async () => {
      ledger.mine(1);
      const blockhash = ledger.latestBlockhash();
      const record = ledger.submit(await ledger.signWire(user, [transferSol(user, recipient, 1_000_000n)]), { preflight: true });
      return { blockhash, signature: record.signature, slot: record.slot, latest: ledger.latestBlockhash() };
    };
    const start = history.snapshot();
    const straight = await mineAndSend();

    await history.revert(start); // undone in place
    const detour = history.snapshot();
    await changeEverything(ledger, accounts, user, clock);
    await history.revert(detour);
    expect(await mineAndSend()).toEqual(straight);

    // a program written in the detour: the revert rebuilds from the journal, on the snapshot's fork too
    const second = history.snapshot();
    const straightAgain = await mineAndSend();
    await history.revert(second);
    const rebuilt = history.snapshot();
    const memo = ledger.account(svmVenueProgram(SVM_MARKET_POOLS[0]!.venue));
    if (!memo.exists) throw new Error('no venue program');
    const svm = ledger.svm;
    ledger.setAccount({ ...memo, address: (await generateKeyPairSigner()).address, lamports: lamports(memo.lamports + 1n) });
    ledger.mine(2);
    await history.revert(rebuilt);
    expect(ledger.svm).not.toBe(svm);
    expect(await mineAndSend()).toEqual(straightAgain);
  });

  it('nested snapshots: back to the later, then the earlier, each exact; a program written after a snapshot falls back to the rebuild, exact too', async () => {
    const { accounts, journal, clock, ledger, history, user } = await setUp();
    const probe = (await generateKeyPairSigner()).address;
    const first = history.snapshot();
    const atFirst = world(ledger, [user.address, probe]);
    await ledger.airdrop(probe, 3_000_000n, transferSol);
    const second = history.snapshot();
    const atSecond = world(ledger, [user.address, probe]);
    await changeEverything(ledger, accounts, user, clock);
    await ledger.airdrop(probe, 4_000_000n, transferSol);

    await history.revert(second);
    expect(world(ledger, [user.address, probe])).toEqual(atSecond);
    await ledger.airdrop(probe, 5_000_000n, transferSol);
    await history.revert(first);
    expect(world(ledger, [user.address, probe])).toEqual(atFirst);
    expect(ledger.balance(probe)).toBe(0n);

    // a program written after the snapshot: LiteSVM's program cache is out of the undo's reach
    const svm = ledger.svm;
    const third = history.snapshot();
    const atThird = world(ledger, [user.address, probe]);
    const memo = ledger.account(svmVenueProgram(SVM_MARKET_POOLS[0]!.venue));
    if (!memo.exists) throw new Error('no venue program');
    ledger.setAccount({ ...memo, address: probe, lamports: lamports(memo.lamports + 1n) });
    await history.revert(third);
    expect(ledger.svm).not.toBe(svm);
    expect(world(ledger, [user.address, probe])).toEqual(atThird);
    const rebuilt = await opened(accounts, journal, clock);
    expect(world(rebuilt.ledger, [user.address, probe])).toEqual(atThird);
  });
});
