import { describe, expect, it } from 'vitest';
import { BvmLedger, BVM_PARAMS } from '../../../src/nodes/bvm/BvmLedger';
import type { BvmKey } from '../../../src/nodes/bvm/bvmAccounts';
import { fundedBvmLedger } from '../../support/bvmNodeFixtures';
import { p2wpkhFee, signP2wpkhTransaction } from '../../../src/nodes/bvm/bvmTransactions';
import { bitcoin } from '../../../src/nodes/bvm/bvmCrypto';

function pay(ledger: BvmLedger, from: BvmKey, to: BvmKey, value: bigint, fee = p2wpkhFee(1, 2)) {
  const coin = ledger.coinsOf(from.script, true)[0]!;
  return signP2wpkhTransaction([{ coin, key: from }], [
    { script: to.script, value },
    { script: from.script, value: coin.value - value - fee },
  ]);
}

describe('BvmLedger', () => {
  it('funds the test accounts at genesis from matured coinbases, confirmed in a block', () => {
    const { ledger, alice, accounts } = fundedBvmLedger();
    const coins = ledger.coinsOf(alice.script, false);
    expect(coins).toHaveLength(10);
    expect(coins.every((coin) => coin.value === BVM_PARAMS.coin && coin.height === ledger.height && !coin.coinbase)).toBe(true);
    expect(ledger.coinsOf(accounts.solver.script, false).reduce((sum, coin) => sum + coin.value, 0n)).toBe(100n * BVM_PARAMS.coin);
    expect(ledger.height).toBeGreaterThanOrEqual(101);
  });

  it('accepts a signed payment into the mempool, mines it into a block with a real header, and counts confirmations', () => {
    const { ledger, alice, bob } = fundedBvmLedger();
    const tx = pay(ledger, alice, bob, 25_000_000n);
    const record = ledger.submit(tx.toHex());
    expect(record.txid).toBe(tx.getId());
    expect(record.fee).toBe(p2wpkhFee(1, 2));
    expect(ledger.confirmations(record.txid)).toBe(0);
    expect(ledger.coinsOf(bob.script, false).some((coin) => coin.txid === record.txid)).toBe(false);
    expect(ledger.coinsOf(bob.script, true).some((coin) => coin.txid === record.txid)).toBe(true);

    const [block] = ledger.mine(1, bob.script);
    expect(block!.txids).toContain(record.txid);
    // the header commits to the transactions and hashes to the block's id
    expect(block!.block.checkTxRoots()).toBe(true);
    expect(block!.block.checkProofOfWork()).toBe(true);
    expect(bitcoin.Block.fromHex(block!.block.toHex()).getId()).toBe(block!.hash);
    expect(ledger.confirmations(record.txid)).toBe(1);
    ledger.mine(2, bob.script);
    expect(ledger.confirmations(record.txid)).toBe(3);
    // the coinbase pays the subsidy plus the block's fees
    const coinbase = ledger.transaction(block!.txids[0]!)!;
    expect(coinbase.tx.outs[0]!.value).toBe((50n * BVM_PARAMS.coin >> BigInt(Math.floor(block!.height / 150))) + record.fee);
  });

  it('refuses a transaction whose signature does not match its input', () => {
    const { ledger, alice, bob } = fundedBvmLedger();
    const tx = pay(ledger, alice, bob, 25_000_000n);
    // bob signs a spend of alice's coin: his key does not hash to the coin's program
    const coin = ledger.coinsOf(alice.script, true)[0]!;
    const forged = signP2wpkhTransaction([{ coin, key: bob }], [{ script: bob.script, value: coin.value - 1000n }]);
    expect(() => ledger.submit(forged.toHex())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringContaining('mandatory-script-verify-flag-failed') }));
    // a changed output invalidates alice's own signature
    tx.outs[0]!.value += 1n;
    expect(() => ledger.submit(tx.toHex())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringContaining('Signature must be zero') }));
  });

  it('replaces a mempool transaction by a conflicting one paying more (full RBF), refuses one paying no more (insufficient fee), and a spend of a spent output', () => {
    const { ledger, alice, bob, accounts } = fundedBvmLedger();
    const first = pay(ledger, alice, bob, 25_000_000n);
    const sameFee = pay(ledger, alice, accounts.solver, 25_000_000n);
    const second = pay(ledger, alice, accounts.solver, 25_000_000n, p2wpkhFee(1, 2) * 10n);
    const evicted: Array<[string, string | undefined]> = [];
    ledger.onEviction((record, eviction) => evicted.push([record.txid, eviction.replacedBy]));
    ledger.submit(first.toHex());
    expect(() => ledger.submit(sameFee.toHex())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringMatching(/^insufficient fee, rejecting replacement [0-9a-f]{64}; new feerate 0\.0000\d{4} BTC\/kvB <= old feerate 0\.0000\d{4} BTC\/kvB$/) }));
    ledger.submit(second.toHex());
    expect(ledger.mempoolTransactions().map((record) => record.txid)).toEqual([second.getId()]);
    expect(evicted).toEqual([[first.getId(), second.getId()]]);
    ledger.mine(1, bob.script);
    expect(() => ledger.submit(first.toHex())).toThrowError(expect.objectContaining({ code: -25, message: 'bad-txns-inputs-missingorspent' }));
    expect(() => ledger.submit(second.toHex())).toThrowError(expect.objectContaining({ code: -27 }));
  });

  it('refuses outputs above the inputs and fees below the minimum relay fee', () => {
    const { ledger, alice, bob } = fundedBvmLedger();
    const coin = ledger.coinsOf(alice.script, true)[0]!;
    const overspend = signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value: coin.value + 1n }]);
    expect(() => ledger.submit(overspend.toHex())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringContaining('bad-txns-in-belowout') }));
    const feeless = signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value: coin.value - 50n }]);
    expect(() => ledger.submit(feeless.toHex())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringContaining('min relay fee not met') }));
    const dust = signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value: 293n }, { script: alice.script, value: coin.value - 10_000n }]);
    expect(() => ledger.submit(dust.toHex())).toThrowError(expect.objectContaining({ code: -26, message: 'dust' }));
  });

  it('lets a coinbase output be spent only after 100 confirmations', () => {
    const { ledger, alice, bob } = fundedBvmLedger();
    const [block] = ledger.mine(1, alice.script);
    const coin = ledger.coin(block!.txids[0]!, 0)!;
    expect(coin.coinbase).toBe(true);
    const spend = () => signP2wpkhTransaction([{ coin, key: alice }], [{ script: bob.script, value: coin.value - 10_000n }]).toHex();
    ledger.mine(98, bob.script);
    expect(() => ledger.submit(spend())).toThrowError(expect.objectContaining({ code: -26, message: expect.stringContaining('bad-txns-premature-spend-of-coinbase') }));
    ledger.mine(1, bob.script);
    expect(ledger.submit(spend()).fee).toBe(10_000n);
  });

  it('evicts a transaction with its mempool descendants', () => {
    const { ledger, alice, bob } = fundedBvmLedger();
    const parent = ledger.submit(pay(ledger, alice, bob, 25_000_000n).toHex());
    const unconfirmed = ledger.coin(parent.txid, 0)!;
    const child = ledger.submit(signP2wpkhTransaction([{ coin: unconfirmed, key: bob }], [{ script: alice.script, value: unconfirmed.value - 10_000n }]).toHex());
    expect(ledger.evict(parent.txid).map((record) => record.txid)).toEqual([parent.txid, child.txid]);
    expect(ledger.mempoolTransactions()).toHaveLength(0);
    expect(ledger.coinsOf(alice.script, true)).toHaveLength(10);
  });
});
