import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { depositRefusalReason, orderDeadlineOf, type DepositRefusalFacts } from '../../../src/domain/fill/depositRefusal';
import type { DepositAddressInfo } from '../../../src/domain/request/requestRecord';
import { hexId, makeRequestRecord } from '../../support/requestRecordFixture';

// covers: failReason:DOUBLE_SPEND, failReason:ORPHANED_DEPOSIT_REFUND, failReason:DEPOSIT_CHAIN_MISMATCH, failReason:DEPOSIT_ADDRESS_MISMATCH
// covers: failReason:INCORRECT_DEPOSIT_CURRENCY, failReason:ORIGIN_CURRENCY_MISMATCH, failReason:ORDER_EXPIRED

const USDC = '0x00000000000000000000000000000000000000cc';
const depositAddress: DepositAddressInfo = { address: '0x00000000000000000000000000000000000000aa', type: 'strict', depositor: null, depositTxHash: null, recoveryAddress: null };

/** SPEC §7.2, §7.3: why a deposit is refunded as it is. */
describe('depositRefusalReason', () => {
  const record = makeRequestRecord();
  const ttl = 300;
  const facts = (overrides: Partial<DepositRefusalFacts> = {}, deposit: Partial<DepositRefusalFacts['deposit']> = {}): DepositRefusalFacts => ({
    record,
    deposit: { requestId: record.id, chainId: record.quote.originChainId, currency: record.quote.currencyIn.address, ...deposit },
    namedRequestKnown: true,
    indexedAtMs: record.quote.quotedAt,
    quoteTtlSeconds: ttl,
    ...overrides,
  });

  it('takes a deposit of the quoted currency on the quoted chain before the deadline', () => {
    expect(depositRefusalReason(facts())).toBeNull();
  });

  it('a deposit held by a record of its own is a duplicate when the request it names exists, else an orphan', () => {
    const stray = { record: { ...record, id: hexId(99) } };
    expect(depositRefusalReason(facts(stray))).toBe('DOUBLE_SPEND');
    expect(depositRefusalReason(facts({ ...stray, namedRequestKnown: false }))).toBe('ORPHANED_DEPOSIT_REFUND');
  });

  it('another chain: DEPOSIT_CHAIN_MISMATCH, or DEPOSIT_ADDRESS_MISMATCH through a deposit address', () => {
    expect(depositRefusalReason(facts({}, { chainId: 42161 }))).toBe('DEPOSIT_CHAIN_MISMATCH');
    expect(depositRefusalReason(facts({ record: { ...record, depositAddress } }, { chainId: 42161 }))).toBe('DEPOSIT_ADDRESS_MISMATCH');
  });

  it('another currency: INCORRECT_DEPOSIT_CURRENCY, or ORIGIN_CURRENCY_MISMATCH through a deposit address; hex case does not matter', () => {
    expect(depositRefusalReason(facts({}, { currency: USDC }))).toBe('INCORRECT_DEPOSIT_CURRENCY');
    expect(depositRefusalReason(facts({ record: { ...record, depositAddress } }, { currency: USDC }))).toBe('ORIGIN_CURRENCY_MISMATCH');
    expect(depositRefusalReason(facts({}, { currency: `0x${record.quote.currencyIn.address.slice(2).toUpperCase()}` }))).toBeNull();
  });

  it('ORDER_EXPIRED exactly when indexed in a later second than the order deadline (quote time + TTL)', () => {
    const deadline = orderDeadlineOf(record.quote.quotedAt, ttl);
    expect(deadline).toBe(Math.floor(record.quote.quotedAt / 1000) + ttl);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 * ttl * 1000 }), (afterMs) => {
        const indexedAtMs = record.quote.quotedAt + afterMs;
        const expired = Math.floor(indexedAtMs / 1000) > deadline;
        expect(depositRefusalReason(facts({ indexedAtMs }))).toBe(expired ? 'ORDER_EXPIRED' : null);
      }),
    );
  });

  it('checks the stray first, then the chain, then the currency, then the deadline', () => {
    const late = record.quote.quotedAt + (ttl + 10) * 1000;
    expect(depositRefusalReason(facts({ record: { ...record, id: hexId(99) }, indexedAtMs: late }, { chainId: 42161, currency: USDC }))).toBe('DOUBLE_SPEND');
    expect(depositRefusalReason(facts({ indexedAtMs: late }, { chainId: 42161, currency: USDC }))).toBe('DEPOSIT_CHAIN_MISMATCH');
    expect(depositRefusalReason(facts({ indexedAtMs: late }, { currency: USDC }))).toBe('INCORRECT_DEPOSIT_CURRENCY');
  });
});
