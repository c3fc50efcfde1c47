import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { BvmLedger } from '../../../src/nodes/bvm/BvmLedger';
import { BvmLedgerJournal } from '../../../src/nodes/bvm/BvmLedgerJournal';
import { deriveBvmAccounts, type BvmKey } from '../../../src/nodes/bvm/bvmAccounts';
import { writeBvmGenesis } from '../../../src/nodes/bvm/writeBvmGenesis';
import { p2wpkhFee, signP2wpkhTransaction } from '../../../src/nodes/bvm/bvmTransactions';
import { ChainError } from '../../../src/errors/IntentsimError';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

const MNEMONIC = 'test test test test test test test test test test test junk';
const CHAIN = 8253038;

/** A ledger on `store`'s journal (genesis now, or the journal applied again), as the chain builds it at start. */
function journaledLedger(store: LedgerJournalStore, clock: VirtualClock, accountCount = 2) {
  const accounts = deriveBvmAccounts(MNEMONIC, accountCount);
  const ledger = new BvmLedger({ clock });
  const journal = new BvmLedgerJournal({ chainId: CHAIN, store, ledger });
  const { applied } = journal.open((time) => writeBvmGenesis(ledger, accounts, time), clock.nowSeconds());
  return { ledger, accounts, journal, applied, alice: accounts.testAccounts[0]!, bob: accounts.testAccounts[1]! };
}

function pay(ledger: BvmLedger, from: BvmKey, to: BvmKey, value: bigint) {
  const coin = ledger.coinsOf(from.script, true)[0]!;
  return signP2wpkhTransaction([{ coin, key: from }], [
    { script: to.script, value },
    { script: from.script, value: coin.value - value - p2wpkhFee(1, 2) },
  ]).toHex();
}

/** Everything a client can read of a ledger. */
function stateOf(ledger: BvmLedger, keys: BvmKey[]) {
  return {
    blocks: Array.from({ length: ledger.height + 1 }, (_, height) => {
      const block = ledger.block(height)!;
      return { hash: block.hash, time: block.time, txids: block.txids };
    }),
    mempool: ledger.mempoolTransactions().map((record) => ({ txid: record.txid, time: record.time })),
    coins: keys.map((key) => ledger.coinsOf(key.script, true).map((coin) => `${coin.txid}:${coin.vout}:${coin.value}:${coin.height}`)),
  };
}

describe('BvmLedgerJournal', () => {
  it('gives back the same blocks, times, mempool and coins: admissions, a drop with its descendant, pinned block times, blocks', () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    const clock = new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 });
    const { ledger, alice, bob, accounts } = journaledLedger(store, clock);

    clock.advance(30_000);
    ledger.submit(pay(ledger, alice, bob, 10_000_000n));
    clock.advance(30_000);
    ledger.setNextBlockTimestamp(1_800_000_500);
    ledger.mine(1, accounts.miner.script);
    clock.advance(60_000);
    const dropped = ledger.submit(pay(ledger, bob, alice, 5_000_000n));
    // spends the change of `dropped`
    const change = ledger.coin(dropped.txid, 1)!;
    const child = ledger.submit(signP2wpkhTransaction([{ coin: change, key: bob }], [{ script: alice.script, value: change.value - p2wpkhFee(1, 1) }]).toHex());
    const kept = ledger.submit(pay(ledger, alice, bob, 2_000_000n));
    expect(ledger.evict(dropped.txid).map((record) => record.txid)).toEqual([dropped.txid, child.txid]);
    clock.advance(600_000);
    ledger.mine(2, accounts.solver.script);
    const waiting = ledger.submit(pay(ledger, alice, bob, 3_000_000n));
    const before = stateOf(ledger, [alice, bob, accounts.solver]);
    expect(before.mempool.map((entry) => entry.txid)).toEqual([waiting.txid]);
    expect(ledger.transaction(kept.txid)!.height).toBe(ledger.height - 1);
    expect(ledger.transaction(dropped.txid)).toBeUndefined();

    // a later start, the clock elsewhere: the journal decides
    const restarted = journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_900_000_000_000 }));
    expect(restarted.applied).toBeGreaterThan(0);
    expect(stateOf(restarted.ledger, [alice, bob, accounts.solver])).toEqual(before);

    // and it journals on: a block mined after the restart comes back too
    restarted.ledger.mine(1, accounts.miner.script);
    const again = journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_950_000_000_000 }));
    expect(stateOf(again.ledger, [alice, bob])).toEqual(stateOf(restarted.ledger, [alice, bob]));
  });

  it('gives back a tip invalidated (its transactions in the mempool) and one invalidated then reconsidered', () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    const clock = new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 });
    const { ledger, alice, bob, accounts } = journaledLedger(store, clock);
    const first = ledger.submit(pay(ledger, alice, bob, 10_000_000n));
    const [kept] = ledger.mine(1, accounts.miner.script);
    const second = ledger.submit(pay(ledger, bob, alice, 4_000_000n));
    const [dropped] = ledger.mine(1, accounts.miner.script);
    ledger.invalidateTip();
    ledger.invalidateTip();
    expect(ledger.mempoolTransactions().map((record) => record.txid)).toEqual([first.txid, second.txid]);
    expect(ledger.reconsider(kept!.hash).map((block) => block.hash)).toEqual([kept!.hash, dropped!.hash]);
    ledger.invalidateTip();
    const before = stateOf(ledger, [alice, bob]);
    expect(before.mempool.map((entry) => entry.txid)).toEqual([second.txid]);
    expect(stateOf(journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_900_000_000_000 })).ledger, [alice, bob])).toEqual(before);
  });

  it('gives back a replacement (RBF), a reorg whose branch spends a returned transaction\'s input, a snapshot and a revert', () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    const clock = new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 });
    const { ledger, alice, bob, accounts } = journaledLedger(store, clock);
    const [coin, other] = ledger.coinsOf(alice.script, false);
    const replaced = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: bob.script, value: coin!.value - 1_000n }]);
    const replacement = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: alice.script, value: coin!.value - 5_000n }]);
    ledger.submit(replaced.toHex());
    clock.advance(5_000);
    ledger.submit(replacement.toHex());
    const deposit = signP2wpkhTransaction([{ coin: other!, key: alice }], [{ script: bob.script, value: other!.value - 1_000n }]);
    ledger.submit(deposit.toHex());
    ledger.mine(1, accounts.miner.script);
    const id = ledger.snapshot();
    clock.advance(60_000);
    const conflict = signP2wpkhTransaction([{ coin: other!, key: alice }], [{ script: alice.script, value: other!.value - 9_000n }]);
    ledger.reorg(1, accounts.miner.script, [conflict.toHex()]);
    ledger.submit(pay(ledger, bob, alice, 1_000_000n));
    const reorged = stateOf(ledger, [alice, bob]);
    expect(ledger.transaction(deposit.getId())).toBeUndefined();
    expect(stateOf(journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_900_000_000_000 })).ledger, [alice, bob])).toEqual(reorged);
    const restarted = journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_900_000_000_000 })).ledger;
    expect(restarted.revert(id)).toBe(true);
    const reverted = stateOf(restarted, [alice, bob]);
    expect(reverted.mempool).toEqual([]);
    expect(restarted.confirmations(deposit.getId())).toBe(1);
    expect(stateOf(journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_900_000_000_000 })).ledger, [alice, bob])).toEqual(reverted);
  });

  it('a change the journal cannot write is not made', () => {
    const db = openDatabase(':memory:');
    const store = new LedgerJournalStore(db);
    const clock = new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 });
    const { ledger, alice, bob, accounts } = journaledLedger(store, clock);
    const height = ledger.height;
    db.close();
    expect(() => ledger.submit(pay(ledger, alice, bob, 10_000_000n))).toThrow();
    expect(ledger.mempoolTransactions()).toEqual([]);
    expect(() => ledger.mine(1, accounts.miner.script)).toThrow();
    expect(ledger.height).toBe(height);
  });

  it('refuses a journal written with another genesis (a different account count)', () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 }), 2);
    expect(() => journaledLedger(store, new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 }), 3)).toThrow(ChainError);
  });
});
