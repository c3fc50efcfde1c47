import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type Database from 'better-sqlite3';
import { VirtualClock } from '../../src/clock/VirtualClock';
import { RequestEventBus } from '../../src/events/RequestEventBus';
import { RequestLifecycle, transitionRequest, createRequest } from '../../src/lifecycle/transitionRequest';
import { AppFeeStore } from '../../src/store/AppFeeStore';
import { openDatabase } from '../../src/store/openDatabase';
import { RequestRecordWriter } from '../../src/store/RequestRecordWriter';
import { RequestStore } from '../../src/store/RequestStore';
import { hexId, makeRequestRecord } from '../support/requestRecordFixture';
import type { Currency } from '../../src/domain/chain/currency';

const USDC: Currency = {
  chainId: 1,
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  symbol: 'USDC',
  name: 'USD Coin',
  decimals: 6,
  isNative: false,
  logoURI: 'https://intentsim.invalid/logos/usdc.png',
  verified: true,
  priceUsdMicros: 1_000_000n,
};
const APP = '0x000000000000000000000000000000000000A99A';
const PARTNER = '0x000000000000000000000000000000000000b0B0';

/** App fee credits through the real lifecycle on a real (in-memory) SQLite database. */
describe('app fee credits and claims (AppFeeStore with RequestLifecycle)', () => {
  let db: Database.Database;
  let store: AppFeeStore;
  let lifecycle: RequestLifecycle;

  beforeEach(() => {
    db = openDatabase(':memory:');
    store = new AppFeeStore(db);
    lifecycle = new RequestLifecycle({ requests: new RequestStore(db), writer: new RequestRecordWriter(db), clock: new VirtualClock({ mode: 'manual', startMs: 1_700_000_000_000 }), bus: new RequestEventBus(), appFees: store });
  });
  afterEach(() => db.close());

  function succeed(id: number, actual: Array<{ recipient: string; amount: bigint }>): string {
    const quoted = actual.map((fee) => ({ ...fee, bps: 10n }));
    const record = makeRequestRecord({ id: hexId(id), appFees: { currency: USDC, quoted, actual: [] } });
    createRequest(lifecycle, record);
    transitionRequest(lifecycle, { requestId: record.id, to: 'pending' });
    transitionRequest(lifecycle, { requestId: record.id, to: 'submitted' });
    // no credit before success
    expect(store.creditsOf(record.id)).toEqual([]);
    transitionRequest(lifecycle, { requestId: record.id, to: 'success', update: (r) => (r.appFees!.actual = quoted) });
    return record.id;
  }

  it('a successful request credits each recipient its actual share, in the fee currency; balances add up per recipient', () => {
    const first = succeed(1, [{ recipient: APP, amount: 1_000_000n }]);
    succeed(2, [
      { recipient: APP, amount: 250_000n },
      { recipient: PARTNER, amount: 125_000n },
      { recipient: PARTNER, amount: 0n },
    ]);
    expect(store.creditsOf(first)).toEqual([{ requestId: first, position: 0, wallet: APP, chainId: 1, currency: USDC.address, amount: 1_000_000n }]);
    expect(store.balances(APP)).toEqual([{ chainId: 1, currency: USDC.address, amount: 1_250_000n }]);
    expect(store.balances(PARTNER)).toEqual([{ chainId: 1, currency: USDC.address, amount: 125_000n }]);
    // crediting the same request again (a replay) adds nothing
    store.credit(store.creditsOf(first), 0);
    expect(store.balanceOf(APP, 1, USDC.address)).toBe(1_250_000n);
  });

  it('a credit that cannot be written rolls the status change back with it (one transaction)', () => {
    const record = makeRequestRecord({ id: hexId(9), appFees: { currency: USDC, quoted: [{ recipient: APP, bps: 10n, amount: 5n }], actual: [] } });
    createRequest(lifecycle, record);
    transitionRequest(lifecycle, { requestId: record.id, to: 'pending' });
    transitionRequest(lifecycle, { requestId: record.id, to: 'submitted' });
    db.exec('DROP TABLE app_fee_credits');
    expect(() => transitionRequest(lifecycle, { requestId: record.id, to: 'success', update: (r) => (r.appFees!.actual = r.appFees!.quoted) })).toThrow(/app_fee_credits/);
    expect(lifecycle.requests.get(record.id)!.status).toBe('submitted');
  });

  it('claims: unsigned claims take nothing; a debit needs the balance; a failed payment gives it back', () => {
    succeed(3, [{ recipient: APP, amount: 900n }]);
    const one = store.createClaim({ wallet: APP, chainId: 1, currency: USDC.address, recipient: PARTNER, amount: 600n }, 1);
    const two = store.createClaim({ wallet: APP, chainId: 1, currency: USDC.address, recipient: PARTNER, amount: 600n }, 2);
    expect(one.id).not.toBe(two.id);
    expect(store.balanceOf(APP, 1, USDC.address)).toBe(900n);
    expect(store.debitClaim(one.id, 3)).toMatchObject({ ok: true });
    expect(store.balanceOf(APP, 1, USDC.address)).toBe(300n);
    expect(store.debitClaim(two.id, 4)).toMatchObject({ ok: false, reason: 'insufficient', balance: 300n });
    expect(store.debitClaim(one.id, 5)).toMatchObject({ ok: false, reason: 'already-signed' });
    store.recordPayment(one.id, { txHash: '0xabc', status: 'failure' }, 6);
    expect(store.balanceOf(APP, 1, USDC.address)).toBe(900n);
    expect(store.debitClaim(two.id, 7)).toMatchObject({ ok: true });
    store.recordPayment(two.id, { txHash: '0xdef', status: 'success' }, 8);
    expect(store.balanceOf(APP, 1, USDC.address)).toBe(300n);
    expect(store.listClaims(APP, 10).map((claim) => [claim.id, claim.status])).toEqual([
      [two.id, 'success'],
      [one.id, 'failure'],
    ]);
  });
});
