import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Address } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { LvmLedger, LvmTransferRefusedError, type LvmTransferParams } from '../../../src/nodes/lvm/LvmLedger';
import { LvmJournalMismatchError, LvmLedgerJournal, type LvmGenesisOwners } from '../../../src/nodes/lvm/LvmLedgerJournal';
import { LVM_TRANSFER_FEE, ROUTE_PERP, ROUTE_SPOT, USDC_ASSET } from '../../../src/nodes/lvm/lvmAssets';
import { writeLvmGenesis } from '../../../src/nodes/lvm/writeLvmGenesis';
import { LvmDepositWatcher } from '../../../src/chains/lvm/LvmDepositWatcher';
import type { ChainObservation } from '../../../src/chains/ChainAdapter';
import { ChainIndexStore } from '../../../src/store/ChainIndexStore';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

const CHAIN = 3586256;
const MNEMONIC = 'test test test test test test test test test test test junk';
const OWNERS: LvmGenesisOwners = {
  deployer: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  solver: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  testAccounts: ['0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', '0x90F79bf6EB2c4f870365E785982E1f101E93b906'],
};

const dirs: string[] = [];
const dbs: Database.Database[] = [];
afterEach(() => {
  dbs.splice(0).forEach((db) => db.close());
  dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

function dbFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-lvm-journal-'));
  dirs.push(dir);
  return join(dir, 'sim.db');
}

/** What a start does: genesis, then the journal resumed (replayed when the file has one). */
function startLedger(path: string, clockMs: number, owners = OWNERS) {
  const db = openDatabase(path);
  dbs.push(db);
  const clock = new VirtualClock({ mode: 'manual', startMs: clockMs });
  const ledger = new LvmLedger({ clock });
  const genesis = writeLvmGenesis(ledger, owners, { mnemonic: MNEMONIC, chainId: CHAIN });
  const store = new LedgerJournalStore(db);
  const replayed = new LvmLedgerJournal({ chainId: CHAIN, ledger, store, nowMs: () => clock.now() }).resume(owners);
  return { db, clock, ledger, genesis, store, replayed };
}

/** Every account of `indexes` as it stands (copied: the ledger changes its own objects). */
function accountsAt(ledger: LvmLedger, indexes: number[]) {
  return indexes.map((index) => {
    const account = ledger.account(index);
    return account && { ...account, spot: [...account.spot] };
  });
}

function usdc(from: number, to: number, amount: bigint, overrides: Partial<LvmTransferParams> = {}): LvmTransferParams {
  return { fromAccountIndex: from, toAccountIndex: to, assetIndex: USDC_ASSET.index, fromRouteType: ROUTE_PERP, toRouteType: ROUTE_PERP, amount, usdcFee: LVM_TRANSFER_FEE, ...overrides };
}

describe('the exchange ledger journal', () => {
  it('gives back after a restart every account, key, balance, nonce, transfer (hash, height, time) and snapshot, and journals what follows', () => {
    const path = dbFile();
    const first = startLedger(path, 1_800_000_000_000);
    expect(first.replayed).toBe(0);
    const [alice, bob] = first.genesis.testAccounts as [typeof first.genesis.solver, typeof first.genesis.solver];
    const { ledger, clock } = first;
    const sub = ledger.createSubAccount(alice.index);
    ledger.issueApiKey(sub.index, 'sub-key');
    const labelled = ledger.createMasterAccount('0x00000000000000000000000000000000000000aa' as Address);
    clock.advance(5_000);
    ledger.submitTransfer(alice.apiKey, usdc(alice.index, sub.index, 7_000_000n, { memo: `0x${'cd'.repeat(32)}` }));
    ledger.mine(3);
    ledger.setNextBlockTimestamp(1_900_000_000);
    ledger.submitTransfer('sub-key', usdc(sub.index, bob.index, 2_000_000n, { nonce: 9 }));
    const snapshot = ledger.snapshot();
    ledger.transfer(usdc(bob.index, sub.index, 1_000_000n, { toRouteType: ROUTE_SPOT }));
    ledger.revert(snapshot);
    clock.advance(60_000);
    ledger.transfer(usdc(bob.index, labelled.index, 500_000n));
    const indexes = [0, first.genesis.solver.index, alice.index, bob.index, sub.index, labelled.index];
    const before = { accounts: accountsAt(ledger, indexes), height: ledger.height, txs: [alice, bob].map((a) => ledger.transactionsOf(a.index)) };
    first.db.close();
    dbs.splice(0);

    // a later start: the clock elsewhere, the same ledger
    const second = startLedger(path, 1_800_100_000_000);
    expect(second.replayed).toBeGreaterThan(0);
    expect(accountsAt(second.ledger, indexes)).toEqual(before.accounts);
    expect(before.accounts.every((account) => account !== undefined)).toBe(true);
    expect(second.ledger.height).toBe(before.height);
    expect([alice, bob].map((a) => second.ledger.transactionsOf(a.index))).toEqual(before.txs);
    expect(before.txs[1]!.map((tx) => tx.executedAt)).toEqual([1_800_000_065_000, 1_900_000_000_000]);
    // keys issued after genesis still open their account, and only it
    expect(second.ledger.accountOfApiKey('sub-key')).toBe(sub.index);
    expect(() => second.ledger.submitTransfer('sub-key', usdc(alice.index, bob.index, 1n))).toThrow(LvmTransferRefusedError);
    // the snapshot taken before the restart is still there to go back to
    expect(second.ledger.revert(snapshot)).toBe(true);
    expect(second.ledger.transactionsOf(labelled.index)).toEqual([]);

    // what happens after the restart is journaled too: a third start has it
    const after = second.ledger.submitTransfer('sub-key', usdc(sub.index, alice.index, 100_000n));
    second.db.close();
    dbs.splice(0);
    const third = startLedger(path, 1_800_200_000_000);
    expect(third.ledger.transaction(after.hash)).toEqual(after);
    expect(third.ledger.transactionsOf(labelled.index)).toEqual([]);
  });

  it("journals the control plane's account changes: a restart keeps an account paused, a key revoked, collateral as set", () => {
    const path = dbFile();
    const first = startLedger(path, 1_800_000_000_000);
    const [alice, bob] = first.genesis.testAccounts as [typeof first.genesis.solver, typeof first.genesis.solver];
    first.ledger.controlAccount(alice.index, { paused: true });
    first.ledger.controlAccount(bob.index, { apiKeyRevoked: true, collateral: 42n });
    first.db.close();
    dbs.splice(0);
    const { ledger } = startLedger(path, 1_800_100_000_000);
    expect(ledger.account(alice.index)).toMatchObject({ paused: true, apiKeyRevoked: false });
    expect(ledger.account(bob.index)).toMatchObject({ paused: false, apiKeyRevoked: true, collateral: 42n });
    expect(() => ledger.submitTransfer(bob.apiKey, usdc(bob.index, alice.index, 1n))).toThrow('the API key of account');
  });

  it('a refused transfer leaves nothing in the journal', () => {
    const path = dbFile();
    const { ledger, genesis, store } = startLedger(path, 1_800_000_000_000);
    const alice = genesis.testAccounts[0]!;
    const entries = store.entries(CHAIN).length;
    expect(() => ledger.submitTransfer(alice.apiKey, usdc(alice.index, 999, 1n))).toThrow(LvmTransferRefusedError);
    expect(() => ledger.transfer(usdc(alice.index, genesis.solver.index, 10n ** 20n))).toThrow(LvmTransferRefusedError);
    expect(store.entries(CHAIN)).toHaveLength(entries);
  });

  it('refuses a journal made for other accounts (another mnemonic or account count) rather than replaying it onto other indexes', () => {
    const path = dbFile();
    startLedger(path, 1_800_000_000_000);
    dbs.splice(0).forEach((db) => db.close());
    expect(() => startLedger(path, 1_800_000_000_000, { ...OWNERS, testAccounts: OWNERS.testAccounts.slice(0, 1) })).toThrow(LvmJournalMismatchError);
  });

  it('after a replay the deposit watcher reports the deposits a killed run journaled but never indexed, and none it had indexed', () => {
    const path = dbFile();
    const first = startLedger(path, 1_800_000_000_000);
    const [alice, bob] = first.genesis.testAccounts as [typeof first.genesis.solver, typeof first.genesis.solver];
    const depository = first.genesis.solver.index;
    const watch = (ledger: LvmLedger, db: Database.Database) => {
      const seen: ChainObservation[] = [];
      const watcher = new LvmDepositWatcher({ chainId: CHAIN, ledger, depositoryIndex: depository, chainIndex: new ChainIndexStore(db), emit: (observation) => seen.push(observation) });
      return { watcher, seen };
    };
    const running = watch(first.ledger, first.db);
    const indexed = first.ledger.submitTransfer(alice.apiKey, usdc(alice.index, depository, 5_000_000n, { memo: `0x${'11'.repeat(32)}` }));
    expect(running.seen).toHaveLength(1);
    // the process dies right after the ledger journaled this one, before the watcher heard of it
    running.watcher.stop();
    const unseen = first.ledger.submitTransfer(bob.apiKey, usdc(bob.index, depository, 6_000_000n, { memo: `0x${'22'.repeat(32)}` }));
    first.ledger.submitTransfer(bob.apiKey, usdc(bob.index, alice.index, 1_000n, { memo: `0x${'33'.repeat(32)}` }));
    first.db.close();
    dbs.splice(0);

    const second = startLedger(path, 1_800_000_100_000);
    const restarted = watch(second.ledger, second.db);
    restarted.watcher.catchUp();
    expect(restarted.seen.map((observation) => (observation.kind === 'deposit' ? observation.deposit.txHash : observation.kind))).toEqual([unseen.hash]);
    restarted.watcher.catchUp();
    expect(restarted.seen).toHaveLength(1);
    expect(second.ledger.transaction(indexed.hash)).toEqual(indexed);
  });
});
