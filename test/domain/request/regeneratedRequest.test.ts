import { describe, expect, it } from 'vitest';
import { regeneratesRequest, type RegeneratingQuote } from '../../../src/domain/request/regeneratedRequest';
import type { RequestRecord } from '../../../src/domain/request/requestRecord';
import { hexId, makeRequestRecord, makeTransactionEntry } from '../../support/requestRecordFixture';

/** An earlier unpaid deposit-address request, and the quote that asks for the same thing. */
function earlierAndQuote(overrides: Partial<RequestRecord> = {}): { earlier: RequestRecord; quote: RegeneratingQuote } {
  const earlier = makeRequestRecord({
    apiKey: 'key-a',
    depositAddress: { address: 'bcrt1qexample', type: 'open', depositor: null, depositTxHash: null, recoveryAddress: null },
    ...overrides,
  });
  const quote: RegeneratingQuote = {
    apiKey: 'key-a',
    user: earlier.quote.user.toLowerCase(),
    recipient: earlier.quote.recipient,
    originChainId: earlier.quote.originChainId,
    originCurrency: earlier.quote.currencyIn.address,
    destinationChainId: earlier.quote.destinationChainId,
    destinationCurrency: earlier.quote.currencyOut.address,
    depositAddressType: 'open',
  };
  return { earlier, quote };
}

describe('regeneratesRequest (SPEC §2.3 supersededByRequestId)', () => {
  it('a waiting, unpaid deposit-address request with the same key, user, recipient, route and type is regenerated', () => {
    const { earlier, quote } = earlierAndQuote();
    expect(regeneratesRequest(earlier, quote)).toBe(true);
  });

  it('not once anything was paid, moved on, superseded, or without a deposit address', () => {
    const paid = { address: 'bcrt1qexample', type: 'open' as const, depositor: 'bcrt1quser', depositTxHash: hexId(0xab), recoveryAddress: null };
    const cases: Record<string, Partial<RequestRecord>> = {
      pending: { status: 'pending' },
      'paid into its address': { depositAddress: paid },
      'a deposit in inTxs': { inTxs: [makeTransactionEntry({ txHash: hexId(9), type: 'deposit' })] },
      superseded: { supersededByRequestId: hexId(7) },
      'no deposit address': { depositAddress: null },
    };
    for (const [name, overrides] of Object.entries(cases)) {
      const { earlier, quote } = earlierAndQuote(overrides);
      expect(regeneratesRequest(earlier, quote), name).toBe(false);
    }
  });

  it('not for another API key, user, recipient, chain, currency or deposit-address type', () => {
    const { earlier, quote } = earlierAndQuote();
    for (const change of [
      { apiKey: null },
      { user: '0x0000000000000000000000000000000000000001' },
      { recipient: '0x0000000000000000000000000000000000000002' },
      { originChainId: 10 },
      { originCurrency: '0x0000000000000000000000000000000000000003' },
      { destinationChainId: 42161 },
      { destinationCurrency: '0x0000000000000000000000000000000000000004' },
      { depositAddressType: 'strict' as const },
    ]) {
      expect(regeneratesRequest(earlier, { ...quote, ...change }), JSON.stringify(change)).toBe(false);
    }
  });
});
