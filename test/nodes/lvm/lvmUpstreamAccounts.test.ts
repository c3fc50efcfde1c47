import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { LvmLedger, type LvmUpstreamAccount } from '../../../src/nodes/lvm/LvmLedger';
import { LvmLedgerJournal } from '../../../src/nodes/lvm/LvmLedgerJournal';
import { FIRST_SUB_ACCOUNT_INDEX } from '../../../src/nodes/lvm/lvmAssets';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

// Accounts a forked exchange read from its upstream, below the network: indexes kept, local accounts
// winning, new local accounts skipping them, a revert keeping them, the journal bringing them back.
const OWNER = getAddress('0x00000000000000000000000000000000000000a1');
const OTHER = getAddress('0x00000000000000000000000000000000000000b2');
const owners = { deployer: OWNER, solver: OTHER, testAccounts: [] };

function journaledLedger(store: LedgerJournalStore): LvmLedger {
  const ledger = new LvmLedger({ clock: new VirtualClock({ mode: 'manual', startMs: 1_800_000_000_000 }) });
  ledger.createMasterAccount(OWNER);
  new LvmLedgerJournal({ chainId: 3586256, ledger, store, nowMs: () => 1_800_000_000_000 }).resume(owners);
  return ledger;
}

const read = (index: number, kind: 'master' | 'sub', collateral: bigint): LvmUpstreamAccount => ({ index, l1Address: OTHER, kind, masterIndex: kind === 'master' ? index : 1, collateral, spot: [[1, 5n]], nonce: 7 });

describe('accounts a forked exchange read from its upstream', () => {
  it('keep their index, balances and nonce; a local index wins; new local accounts skip them; a revert and the journal keep them', () => {
    const store = new LedgerJournalStore(openDatabase(':memory:'));
    const ledger = journaledLedger(store);
    const before = ledger.snapshot();
    const added = ledger.addUpstreamAccounts([read(0, 'master', 1n), read(1, 'master', 2_000_000n), read(FIRST_SUB_ACCOUNT_INDEX, 'sub', 3_000_000n)]);
    // index 0 is the local account's
    expect(added.map((account) => account.index)).toEqual([1, FIRST_SUB_ACCOUNT_INDEX]);
    expect(ledger.account(0)!.l1Address).toBe(OWNER);
    expect(ledger.account(1)).toMatchObject({ l1Address: OTHER, collateral: 2_000_000n, nonce: 7 });
    expect(ledger.balance(FIRST_SUB_ACCOUNT_INDEX, 1, 1)).toBe(5n);
    expect(ledger.createMasterAccount(OWNER).index).toBe(2);
    expect(ledger.createSubAccount(0).index).toBe(FIRST_SUB_ACCOUNT_INDEX - 1);
    ledger.fund(1, 1n);

    expect(ledger.revert(before)).toBe(true);
    expect(ledger.account(2)).toBeUndefined();
    // read before the revert: back as read
    expect(ledger.account(1)).toMatchObject({ collateral: 2_000_000n, nonce: 7 });
    expect(ledger.isFromUpstream(FIRST_SUB_ACCOUNT_INDEX)).toBe(true);

    const again = journaledLedger(store);
    expect(again.account(1)).toMatchObject({ l1Address: OTHER, collateral: 2_000_000n, nonce: 7 });
    expect(again.account(FIRST_SUB_ACCOUNT_INDEX)).toMatchObject({ kind: 'sub', collateral: 3_000_000n });
    expect(again.account(2)).toBeUndefined();
  });
});
