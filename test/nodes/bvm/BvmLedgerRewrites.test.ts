import { describe, expect, it } from 'vitest';
import { BvmLedger } from '../../../src/nodes/bvm/BvmLedger';
import type { BvmKey } from '../../../src/nodes/bvm/bvmAccounts';
import { fundedBvmLedger } from '../../support/bvmNodeFixtures';
import { p2wpkhFee, signP2wpkhTransaction } from '../../../src/nodes/bvm/bvmTransactions';
import type { BvmCoin } from '../../../src/nodes/bvm/BvmLedger';

// reorgs, invalidateblock, replace-by-fee and snapshots on the ledger itself (the RPC side: bitcoinCoreFaults.test.ts)

function spend(coin: BvmCoin, from: BvmKey, to: BvmKey, value: bigint, fee = p2wpkhFee(1, 2)) {
  return signP2wpkhTransaction([{ coin, key: from }], [
    { script: to.script, value },
    { script: from.script, value: coin.value - value - fee },
  ]);
}

describe('BvmLedger rewrites', () => {
  it('a reorg of depth 2 mines 2 other blocks and returns the dropped transactions to the mempool, in order, ahead of what waited there', () => {
    const { ledger, alice, bob, accounts, clock } = fundedBvmLedger();
    const [a, b, c] = ledger.coinsOf(alice.script, false);
    const first = ledger.submit(spend(a!, alice, bob, 1_000_000n).toHex());
    const [firstBlock] = ledger.mine(1, accounts.miner.script);
    const second = ledger.submit(spend(b!, alice, bob, 2_000_000n).toHex());
    const [secondBlock] = ledger.mine(1, accounts.miner.script);
    const waiting = ledger.submit(spend(c!, alice, bob, 3_000_000n).toHex());
    const height = ledger.height;
    let rewrites = 0;
    ledger.onRewrite(() => (rewrites += 1));
    clock.advance(60_000);
    const replaced = ledger.reorg(2, accounts.miner.script);
    expect(ledger.height).toBe(height);
    expect(replaced.map((block) => block.hash)).not.toContain(firstBlock!.hash);
    expect(replaced.map((block) => block.hash)).not.toContain(secondBlock!.hash);
    expect(ledger.block(firstBlock!.hash)).toBeUndefined();
    expect(replaced.every((block) => block.txids.length === 1)).toBe(true);
    expect(ledger.mempoolTransactions().map((record) => record.txid)).toEqual([first.txid, second.txid, waiting.txid]);
    expect(ledger.confirmations(first.txid)).toBe(0);
    expect(rewrites).toBe(1);
    // the same reorg again gives other blocks (each replacement coinbase carries its own number)
    const again = ledger.reorg(1, accounts.miner.script);
    expect(again[0]!.hash).not.toBe(replaced[1]!.hash);
  });

  it('a conflicting spend mined in the replacing branch evicts the returned transaction (and its child), telling which transaction spent it', () => {
    const { ledger, alice, bob, accounts } = fundedBvmLedger();
    const [coin] = ledger.coinsOf(alice.script, false);
    const deposit = ledger.submit(spend(coin!, alice, bob, 1_000_000n).toHex());
    ledger.mine(1, accounts.miner.script);
    const child = ledger.submit(signP2wpkhTransaction([{ coin: ledger.coin(deposit.txid, 0)!, key: bob }], [{ script: alice.script, value: 1_000_000n - p2wpkhFee(1, 1) }]).toHex());
    const conflict = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: alice.script, value: coin!.value - p2wpkhFee(1, 1) * 3n }]);
    const evicted: Array<[string, string | undefined]> = [];
    ledger.onEviction((record, eviction) => evicted.push([record.txid, eviction.replacedBy]));
    const [replacement] = ledger.reorg(1, accounts.miner.script, [conflict.toHex()]);
    expect(replacement!.txids.slice(1)).toEqual([conflict.getId()]);
    expect(ledger.transaction(deposit.txid)).toBeUndefined();
    expect(ledger.transaction(child.txid)).toBeUndefined();
    expect(ledger.mempoolTransactions()).toEqual([]);
    expect(evicted).toEqual([
      [deposit.txid, conflict.getId()],
      [child.txid, conflict.getId()],
    ]);
    expect(ledger.spenderOf(coin!.txid, coin!.vout)).toBe(conflict.getId());
  });

  it('refuses a reorg deeper than the chain and a replacing transaction that spends nothing it can', () => {
    const { ledger, alice, bob, accounts } = fundedBvmLedger();
    expect(() => ledger.reorg(ledger.height + 1, accounts.miner.script)).toThrowError(expect.objectContaining({ code: -8 }));
    const [coin] = ledger.coinsOf(alice.script, false);
    const tx = spend(coin!, alice, bob, 1_000_000n);
    ledger.submit(tx.toHex());
    ledger.mine(1, accounts.miner.script);
    ledger.mine(1, accounts.miner.script);
    // tx is mined below the fork: the replacing branch cannot hold it again, nor spend what it spent
    const tip = ledger.tip!.hash;
    expect(() => ledger.reorg(1, accounts.miner.script, [tx.toHex()])).toThrowError(expect.objectContaining({ code: -27 }));
    const again = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: alice.script, value: coin!.value - 1_000n }]);
    expect(() => ledger.reorg(1, accounts.miner.script, [again.toHex()])).toThrowError(expect.objectContaining({ code: -25 }));
    expect(ledger.tip!.hash).toBe(tip);
  });

  it('replace-by-fee: the replacement must pay the evicted fees and its own relay, and may not spend what it evicts', () => {
    const { ledger, alice, bob } = fundedBvmLedger();
    const [coin] = ledger.coinsOf(alice.script, false);
    const original = ledger.submit(spend(coin!, alice, bob, 1_000_000n, 10_000n).toHex());
    // a higher fee rate (one output fewer) but a lower fee
    const smaller = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: bob.script, value: coin!.value - 9_000n }]);
    expect(() => ledger.submit(smaller.toHex())).toThrowError(expect.objectContaining({ code: -26, message: `insufficient fee, rejecting replacement ${smaller.getId()}, less fees than conflicting txs; 0.00009 < 0.0001` }));
    const barely = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: bob.script, value: coin!.value - 10_050n }]);
    expect(() => ledger.submit(barely.toHex())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringContaining(`rejecting replacement ${barely.getId()}, not enough additional fees to relay; 0.0000005 < 0.00000`) }));
    const child = signP2wpkhTransaction([{ coin: ledger.coin(original.txid, 0)!, key: bob }, { coin: coin!, key: alice }], [{ script: bob.script, value: 1_000_000n }]);
    expect(() => ledger.submit(child.toHex())).toThrowError(expect.objectContaining({ code: -26, message: `bad-txns-spends-conflicting-tx, ${child.getId()} spends conflicting transaction ${original.txid}` }));
    const enough = signP2wpkhTransaction([{ coin: coin!, key: alice }], [{ script: bob.script, value: coin!.value - 20_000n }]);
    expect(ledger.submit(enough.toHex()).txid).toBe(enough.getId());
    expect(ledger.transaction(original.txid)).toBeUndefined();
  });

  it('snapshot and revert put back blocks, coins and the mempool; a revert uses up that snapshot and later ones', () => {
    const { ledger, alice, bob, accounts } = fundedBvmLedger();
    const [a, b] = ledger.coinsOf(alice.script, false);
    const waiting = ledger.submit(spend(a!, alice, bob, 1_000_000n).toHex());
    const tip = ledger.tip!.hash;
    const id = ledger.snapshot();
    expect(id).toBe('0x0');
    ledger.mine(2, accounts.miner.script);
    const later = ledger.snapshot();
    ledger.submit(spend(b!, alice, bob, 1_000_000n).toHex());
    expect(ledger.revert(id)).toBe(true);
    expect(ledger.tip!.hash).toBe(tip);
    expect(ledger.mempoolTransactions().map((record) => record.txid)).toEqual([waiting.txid]);
    expect(ledger.coin(b!.txid, b!.vout)).toEqual(b);
    expect(ledger.revert(later)).toBe(false);
    expect(ledger.revert(id)).toBe(false);
    expect(ledger.snapshot()).toBe('0x2');
  });
});
