import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { LvmLedger, LvmTransferRefusedError, lvmTransferHash, type LvmTransferParams } from '../../../src/nodes/lvm/LvmLedger';
import { FIRST_SUB_ACCOUNT_INDEX, LVM_TRANSFER_FEE, ROUTE_PERP, ROUTE_SPOT, USDC_ASSET } from '../../../src/nodes/lvm/lvmAssets';

const ALICE = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const BOB = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';

function ledgerWithAccounts() {
  const ledger = new LvmLedger({ clock: new VirtualClock({ mode: 'manual', startMs: 1_700_000_000_000 }) });
  const treasury = ledger.createMasterAccount('0x0000000000000000000000000000000000000001');
  const alice = ledger.createMasterAccount(ALICE);
  const bob = ledger.createMasterAccount(BOB);
  ledger.fund(alice.index, 100_000_000n);
  ledger.issueApiKey(alice.index, 'alice-key');
  ledger.issueApiKey(bob.index, 'bob-key');
  return { ledger, treasury, alice, bob };
}

function usdcTransfer(from: number, to: number, amount: bigint, overrides: Partial<LvmTransferParams> = {}): LvmTransferParams {
  return { fromAccountIndex: from, toAccountIndex: to, assetIndex: USDC_ASSET.index, fromRouteType: ROUTE_PERP, toRouteType: ROUTE_PERP, amount, usdcFee: LVM_TRANSFER_FEE, ...overrides };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof LvmTransferRefusedError) return error.reason;
    throw error;
  }
  return 'executed';
}

describe('the exchange ledger', () => {
  it('assigns master account indexes counting up and sub-account indexes counting down from 2^48 − 2', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    expect([alice.index, bob.index]).toEqual([1, 2]);
    const first = ledger.createSubAccount(alice.index);
    const second = ledger.createSubAccount(bob.index);
    expect(first.index).toBe(281474976710654);
    expect(first.index).toBe(FIRST_SUB_ACCOUNT_INDEX);
    expect(second.index).toBe(281474976710653);
    expect(first).toMatchObject({ kind: 'sub', masterIndex: alice.index, l1Address: ALICE });
    expect(ledger.createMasterAccount(ALICE).index).toBe(3);
    // looked up by owner, case-insensitively: master accounts first, then sub-accounts
    expect(ledger.accountsOf(ALICE.toLowerCase()).map((account) => account.index)).toEqual([1, 3, 281474976710654]);
    expect(() => ledger.createSubAccount(first.index)).toThrow(/only a master account/);
  });

  it('moves collateral for real: the amount to the recipient, the fee to account 0, a bare 64-hex hash per transfer', () => {
    const { ledger, alice, bob, treasury } = ledgerWithAccounts();
    const tx = ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 25_000_000n, { memo: `0x${'ab'.repeat(32)}` }));
    expect(tx.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(ledger.account(alice.index)!.collateral).toBe(100_000_000n - 25_000_000n - LVM_TRANSFER_FEE);
    expect(ledger.account(bob.index)!.collateral).toBe(25_000_000n);
    expect(ledger.account(treasury.index)!.collateral).toBe(LVM_TRANSFER_FEE);
    expect(ledger.transaction(tx.hash)).toBe(tx);
    expect(ledger.transaction(`0x${tx.hash.toUpperCase()}`)).toBe(tx);
    expect(tx.hash).toBe(lvmTransferHash(tx));
    const again = ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 25_000_000n, { memo: `0x${'ab'.repeat(32)}` }));
    expect(again.hash).not.toBe(tx.hash);
    expect([tx.nonce, again.nonce]).toEqual([1, 2]);
    expect(ledger.transactionsOf(bob.index).map((t) => t.hash)).toEqual([again.hash, tx.hash]);
  });

  it('refuses an overdraft, counting the fee, and moves nothing', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    expect(refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 100_000_000n)))).toBe('INSUFFICIENT_BALANCE');
    expect(refusal(() => ledger.submitTransfer('bob-key', usdcTransfer(bob.index, alice.index, 1n)))).toBe('INSUFFICIENT_BALANCE');
    expect(ledger.account(alice.index)!.collateral).toBe(100_000_000n);
    expect(ledger.height).toBe(0);
    // exactly everything, fee included, is fine
    ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 100_000_000n - LVM_TRANSFER_FEE));
    expect(ledger.account(alice.index)!.collateral).toBe(0n);
  });

  it('refuses a transfer sent with a key of another account, or a key it never issued', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    expect(refusal(() => ledger.submitTransfer('bob-key', usdcTransfer(alice.index, bob.index, 1_000_000n)))).toBe('API_KEY_NOT_FOR_ACCOUNT');
    expect(refusal(() => ledger.submitTransfer('made-up', usdcTransfer(alice.index, bob.index, 1_000_000n)))).toBe('INVALID_API_KEY');
    expect(ledger.account(bob.index)!.collateral).toBe(0n);
  });

  it('checks assets, routes, fee, nonce, memo and accounts', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    const send = (overrides: Partial<LvmTransferParams>) => refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n, overrides)));
    expect(send({ toAccountIndex: 999 })).toBe('UNKNOWN_ACCOUNT');
    expect(send({ assetIndex: 2 })).toBe('UNKNOWN_ASSET');
    expect(send({ toRouteType: 7 })).toBe('INVALID_ROUTE');
    expect(send({ assetIndex: 1, fromRouteType: ROUTE_PERP })).toBe('INVALID_ROUTE');
    expect(send({ usdcFee: LVM_TRANSFER_FEE - 1n })).toBe('FEE_TOO_LOW');
    expect(send({ amount: 0n })).toBe('INVALID_AMOUNT');
    expect(send({ memo: '0x1234' })).toBe('INVALID_MEMO');
    expect(send({ toAccountIndex: alice.index })).toBe('SAME_ACCOUNT_AND_ROUTE');
    expect(send({ nonce: 5 })).toBe('executed');
    expect(send({ nonce: 5 })).toBe('INVALID_NONCE');
    // perpetuals → spot within one account, then spot USDC to someone else's spot
    expect(send({ toAccountIndex: alice.index, toRouteType: ROUTE_SPOT })).toBe('executed');
    expect(ledger.balance(alice.index, USDC_ASSET.index, ROUTE_SPOT)).toBe(1_000_000n);
    expect(send({ fromRouteType: ROUTE_SPOT, toRouteType: ROUTE_SPOT, amount: 1_000_001n })).toBe('INSUFFICIENT_BALANCE');
    expect(send({ fromRouteType: ROUTE_SPOT, toRouteType: ROUTE_SPOT })).toBe('executed');
    expect(ledger.balance(bob.index, USDC_ASSET.index, ROUTE_SPOT)).toBe(1_000_000n);
  });

  it('snapshot and revert restore balances, nonces and transactions', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    const id = ledger.snapshot();
    const tx = ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n));
    expect(ledger.revert(id)).toBe(true);
    expect(ledger.account(bob.index)!.collateral).toBe(0n);
    expect(ledger.account(alice.index)!.nonce).toBe(0);
    expect(ledger.transaction(tx.hash)).toBeUndefined();
    expect(ledger.revert('0xdead')).toBe(false);
  });

  it('a paused account neither sends nor receives (ACCOUNT_PAUSED, nothing moves) until it is unpaused', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    ledger.controlAccount(bob.index, { paused: true });
    expect(refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n)))).toBe('ACCOUNT_PAUSED');
    ledger.controlAccount(alice.index, { paused: true });
    ledger.controlAccount(bob.index, { paused: false });
    expect(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n))).toThrow(/account 1 is paused/);
    expect(ledger.account(alice.index)).toMatchObject({ collateral: 100_000_000n, nonce: 0 });
    expect(ledger.transactions()).toHaveLength(0);
    ledger.controlAccount(alice.index, { paused: false });
    expect(refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n)))).toBe('executed');
  });

  it("a revoked API key opens nothing (INVALID_API_KEY) until restored; the account's collateral can be set outright", () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    ledger.controlAccount(alice.index, { apiKeyRevoked: true });
    expect(refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1n)))).toBe('INVALID_API_KEY');
    expect(() => ledger.authorize('alice-key')).toThrow('the API key of account 1 was revoked');
    // the ledger itself (the simulator's own signer aside) still knows whose key it is
    expect(ledger.accountOfApiKey('alice-key')).toBe(alice.index);
    ledger.controlAccount(alice.index, { apiKeyRevoked: false, collateral: 5_000n });
    expect(refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1n)))).toBe('INSUFFICIENT_BALANCE');
    expect(ledger.balance(alice.index, USDC_ASSET.index, ROUTE_PERP)).toBe(5_000n);
    expect(refusal(() => ledger.controlAccount(999, { paused: true }))).toBe('UNKNOWN_ACCOUNT');
  });

  it('a transfer sent again with the nonce it executed with is refused (INVALID_NONCE): it executes once', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    const once = ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n, { nonce: 1 }));
    expect(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1_000_000n, { nonce: 1 }))).toThrow("nonce 1 is not above account 1's last nonce 1");
    expect(ledger.transactions()).toEqual([once]);
    expect(ledger.account(bob.index)!.collateral).toBe(1_000_000n);
  });

  it('a revert also takes back pauses, revoked keys and collateral set after the snapshot', () => {
    const { ledger, alice, bob } = ledgerWithAccounts();
    const id = ledger.snapshot();
    ledger.controlAccount(alice.index, { paused: true, apiKeyRevoked: true, collateral: 1n });
    ledger.revert(id);
    expect(ledger.account(alice.index)).toMatchObject({ paused: false, apiKeyRevoked: false, collateral: 100_000_000n });
    expect(refusal(() => ledger.submitTransfer('alice-key', usdcTransfer(alice.index, bob.index, 1n)))).toBe('executed');
  });
});
