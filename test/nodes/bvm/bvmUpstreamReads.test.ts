import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { bvmKeyOf, deriveBvmAccounts } from '../../../src/nodes/bvm/bvmAccounts';
import { BvmLedger } from '../../../src/nodes/bvm/BvmLedger';
import { BvmLedgerJournal } from '../../../src/nodes/bvm/BvmLedgerJournal';
import { p2wpkhFee, signP2wpkhTransaction } from '../../../src/nodes/bvm/bvmTransactions';
import { writeBvmGenesis } from '../../../src/nodes/bvm/writeBvmGenesis';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';
import { TEST_MNEMONIC } from '../../support/bvmNodeFixtures';

// What a forked ledger keeps of its upstream (BvmUpstreamReads), below the network: an output read
// from the upstream through a spend, a disconnect, a revert and a journal replay.
const CHAIN = 8253038;
const holder = bvmKeyOf(new Uint8Array(32).fill(5));
const UPSTREAM_TXID = 'ab'.repeat(32);
const VALUE = 20_000_000n;

function journaledLedger(store: LedgerJournalStore) {
  const clock = new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 });
  const ledger = new BvmLedger({ clock });
  const accounts = deriveBvmAccounts(TEST_MNEMONIC, 1);
  new BvmLedgerJournal({ chainId: CHAIN, store, ledger }).open((time) => writeBvmGenesis(ledger, accounts, time), clock.nowSeconds());
  return { ledger, miner: accounts.miner };
}

describe('outputs a forked ledger read from its upstream', () => {
  it('count as confirmed unspent outputs until spent; a disconnect unspends them; a revert keeps them; the journal brings them back', () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    const { ledger, miner } = journaledLedger(store);
    const before = ledger.snapshot();
    expect(ledger.hasReadUpstreamAddress(holder.script)).toBe(false);
    ledger.addUpstreamOutputs(holder.script, [{ txid: UPSTREAM_TXID, vout: 1, value: VALUE }]);
    expect(ledger.hasReadUpstreamAddress(holder.script)).toBe(true);
    expect(ledger.coinsOf(holder.script, false)).toEqual([expect.objectContaining({ txid: UPSTREAM_TXID, vout: 1, value: VALUE, height: 0 })]);

    const coin = ledger.coin(UPSTREAM_TXID, 1, false)!;
    const spend = ledger.submit(signP2wpkhTransaction([{ coin, key: holder }], [{ script: miner.script, value: VALUE - p2wpkhFee(1, 1) }]).toHex());
    expect(ledger.coinsOf(holder.script, true)).toEqual([]);
    ledger.mine(1, miner.script);
    expect(ledger.coin(UPSTREAM_TXID, 1, false)).toBeUndefined();
    expect(ledger.spenderOf(UPSTREAM_TXID, 1)).toBe(spend.txid);

    // the block spending it disconnected: unspent again, its spend back in the mempool
    ledger.invalidateTip();
    expect(ledger.coin(UPSTREAM_TXID, 1, false)).toMatchObject({ value: VALUE });
    expect(ledger.mempoolTransactions().map((record) => record.txid)).toEqual([spend.txid]);
    ledger.mine(1, miner.script);

    // a revert to before the read: the spend is gone, what was read is not
    expect(ledger.revert(before)).toBe(true);
    expect(ledger.transaction(spend.txid)).toBeUndefined();
    expect(ledger.coinsOf(holder.script, false)).toEqual([expect.objectContaining({ txid: UPSTREAM_TXID, vout: 1 })]);
    ledger.submit(spend.hex);
    ledger.mine(1, miner.script);

    const again = journaledLedger(store).ledger;
    expect(again.tip!.hash).toBe(ledger.tip!.hash);
    expect(again.hasReadUpstreamAddress(holder.script)).toBe(true);
    expect(again.coin(UPSTREAM_TXID, 1, false)).toBeUndefined();
    expect(again.transaction(spend.txid)?.height).toBe(ledger.height);
  });

  it('leaves out an output of a transaction the ledger holds itself (the local transaction wins)', () => {
    const { ledger, miner } = journaledLedger(new LedgerJournalStore(openDatabase(':memory:')));
    const local = ledger.coinsOf(miner.script, false)[0]!;
    ledger.addUpstreamOutputs(holder.script, [{ txid: local.txid, vout: 5, value: VALUE }]);
    expect(ledger.coinsOf(holder.script, false)).toEqual([]);
  });
});
