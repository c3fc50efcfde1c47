import { describe, expect, it } from 'vitest';
import { parseListingQuery } from '../../../src/api/listing/parseListingQuery';
import { matchesListFilter } from '../../../src/domain/listing/requestListFilter';
import { SimulatorError } from '../../../src/errors/SimulatorError';
import { hexId } from '../../support/requestRecordFixture';
import { listingRecords, WALLETS } from '../../support/listingFixtures';

// covers: endpoint:GET /requests/v3

const records = listingRecords({ a: 'key-a', b: 'key-b' });
const all = Object.values(records);
const names = new Map(all.map((r) => [r.id, Object.entries(records).find(([, v]) => v === r)![0]]));

/** The names of the fixture records a v3 query selects (order of the fixture). */
function select(query: Record<string, string>): string[] {
  const { filter } = parseListingQuery(query, 'v3');
  return all.filter((record) => matchesListFilter(record, filter)).map((record) => names.get(record.id)!);
}

describe('GET /requests/v3 filters (SPEC §4.3), as predicates over stored requests', () => {
  it('term searches ids, wallets, deposit address, orderId and every transaction hash, case-insensitively', () => {
    expect(select({ term: hexId(0xb2) })).toEqual(['swap']);
    expect(select({ term: WALLETS.bob.toLowerCase() })).toEqual(['bridge', 'swap', 'reorged']); // bridge & reorged: bob is their recipient
    expect(select({ term: WALLETS.depositAddress.toUpperCase().replace('0X', '0x') })).toEqual(['depositAddress']);
    expect(select({ term: hexId(0xf1) })).toEqual(['bridge']);
    expect(select({ term: hexId(0xe2) })).toEqual(['swap']);
    expect(select({ term: hexId(0xfa) })).toEqual(['reorged']);
    expect(select({ term: hexId(0xda) })).toEqual(['depositAddress']);
    expect(select({ term: hexId(0x0d1) })).toEqual(['bridge']);
    expect(select({ term: hexId(0x999) })).toEqual([]);
  });

  it('user matches the sender (quote user or depositor) or the deposit-address depositor, not the recipient', () => {
    expect(select({ user: WALLETS.alice })).toEqual(['bridge', 'reorged']);
    expect(select({ user: WALLETS.carol })).toEqual(['depositAddress']);
    expect(select({ recipient: WALLETS.alice })).toEqual(['depositAddress']);
  });

  it('id, orderId and the targeted hash filters', () => {
    expect(select({ id: hexId(0xb4).toUpperCase().replace('0X', '0x') })).toEqual(['reorged']);
    expect(select({ orderId: hexId(0x0d1) })).toEqual(['bridge']);
    expect(select({ depositTxHash: hexId(0xd2) })).toEqual(['swap']);
    expect(select({ depositTxHash: hexId(0xda) })).toEqual(['depositAddress']);
    expect(select({ fillTxHash: hexId(0xf1) })).toEqual(['bridge']);
    expect(select({ fillTxHash: hexId(0xd1) })).toEqual([]);
    expect(select({ refundTxHash: hexId(0xe2) })).toEqual(['swap']);
  });

  it('chain ids: origin, destination, chainId in either direction, overridden by origin/destination', () => {
    expect(select({ originChainId: '8453' })).toEqual(['swap', 'reorged']);
    expect(select({ destinationChainId: '8453' })).toEqual(['bridge', 'swap']);
    expect(select({ chainId: '1' })).toEqual(['bridge', 'depositAddress']);
    expect(select({ chainId: '1', originChainId: '8453' })).toEqual(['swap', 'reorged']);
    expect(select({ chainId: '42161', destinationChainId: '8453' })).toEqual(['bridge', 'swap']);
  });

  it('depositAddress, status, failReason, refundFailReason, apiKey (comma list)', () => {
    expect(select({ depositAddress: WALLETS.depositAddress })).toEqual(['depositAddress']);
    expect(select({ status: 'refund' })).toEqual(['swap']);
    expect(select({ status: 'waiting' })).toEqual(['depositAddress']);
    expect(select({ failReason: 'SLIPPAGE' })).toEqual(['swap']);
    expect(select({ failReason: 'DEPOSIT_REORGED' })).toEqual(['reorged']);
    expect(select({ refundFailReason: 'AMOUNT_TOO_LOW_TO_REFUND' })).toEqual(['reorged']);
    expect(select({ apiKey: 'key-b' })).toEqual(['swap']);
    expect(select({ apiKey: 'key-a,key-b' })).toEqual(['bridge', 'swap', 'depositAddress']);
  });

  it('requestType is case-insensitive; currency filters by chain, address and symbol (case-insensitive, across chains)', () => {
    expect(select({ requestType: 'same-chain swap' })).toEqual(['swap']);
    expect(select({ requestType: 'BRIDGE' })).toEqual(['bridge', 'depositAddress', 'reorged']);
    expect(select({ currencyInSymbol: 'usdc' })).toEqual(['swap', 'depositAddress']);
    expect(select({ currencyOutSymbol: 'Eth' })).toEqual(['bridge', 'swap', 'reorged']);
    expect(select({ currencyInChainId: '42161' })).toEqual(['depositAddress']);
    expect(select({ currencyOutChainId: '42161' })).toEqual(['reorged']);
    expect(select({ currencyInAddress: '0x8e2ed702e5333fad65008459c74516238cab5a51' })).toEqual(['swap', 'depositAddress']);
    expect(select({ currencyOutAddress: '0x8E2Ed702E5333fAD65008459C74516238caB5a51' })).toEqual(['depositAddress']);
  });

  it('timestamps bound createdAt (updatedAt when sortBy=updatedAt), inclusive, in unix seconds', () => {
    const created = (name: keyof typeof records) => String(Math.floor(records[name].createdAt / 1000));
    expect(select({ startTimestamp: created('swap'), endTimestamp: created('depositAddress') })).toEqual(['swap', 'depositAddress']);
    const updated = String(Math.floor(records.reorged.updatedAt / 1000));
    expect(select({ startTimestamp: updated })).toEqual([]);
    expect(select({ startTimestamp: updated, sortBy: 'updatedAt' })).toEqual(['reorged']);
  });

  it('blocks bound chain-entry block numbers, inclusive; scoped to origin-chain entries with originChainId', () => {
    expect(select({ startBlock: '20', endBlock: '30' })).toEqual(['bridge', 'swap']);
    expect(select({ startBlock: '20', endBlock: '20' })).toEqual(['bridge']);
    expect(select({ startBlock: '20', endBlock: '20', originChainId: '1' })).toEqual([]);
    expect(select({ startBlock: '10', endBlock: '10', originChainId: '1' })).toEqual(['bridge']);
  });

  it('amountUsd bounds the quoted currencyIn USD; appFees the total app fees; fillTime the deposit-to-fill seconds', () => {
    // bridge 1 ETH = 3000, swap 200 USDC, depositAddress 50 USDC, reorged 2 ETH = 6000
    expect(select({ amountUsdMin: '200', amountUsdMax: '3000' })).toEqual(['bridge', 'swap']);
    expect(select({ amountUsdMax: '49.999999' })).toEqual([]);
    expect(select({ appFeesAmountUsdMin: '1.5' })).toEqual(['swap']);
    expect(select({ appFeesAmountUsdMax: '0' })).toEqual(['bridge', 'depositAddress', 'reorged']);
    expect(select({ fillTimeMin: '4', fillTimeMax: '4' })).toEqual(['bridge']);
    expect(select({ fillTimeMax: '3' })).toEqual([]);
  });

  it('features: at least one of a comma list', () => {
    expect(select({ features: 'app_fees' })).toEqual(['swap']);
    expect(select({ features: 'deposit_address,app_fees' })).toEqual(['swap', 'depositAddress']);
    expect(select({ features: 'fast_fill' })).toEqual([]);
  });

  it('filters: AND within a group, OR across groups, not: negates, arrays OR within the field; AND-ed with the query', () => {
    const filters = (value: unknown) => JSON.stringify(value);
    expect(select({ filters: filters([{ originChainId: 1 }, { depositAddress: WALLETS.depositAddress, originChainId: 42161 }]) })).toEqual(['bridge', 'depositAddress']);
    expect(select({ filters: filters([{ 'not:status': 'failure' }]) })).toEqual(['bridge', 'swap', 'depositAddress']);
    expect(select({ filters: filters([{ 'not:status': ['failure', 'refund'] }]) })).toEqual(['bridge', 'depositAddress']);
    expect(select({ filters: filters([{ status: ['success', 'waiting'], 'not:apiKey': 'key-b' }]) })).toEqual(['bridge', 'depositAddress']);
    expect(select({ filters: filters([{ originChainId: [1, 42161] }]), apiKey: 'key-a', status: 'waiting' })).toEqual(['depositAddress']);
    expect(select({ filters: filters([{ amountUsdMin: '1000' }, { features: 'app_fees' }]) })).toEqual(['bridge', 'swap', 'reorged']);
    expect(select({ filters: filters([]) })).toEqual(['bridge', 'swap', 'depositAddress', 'reorged']);
    expect(select({ filters: filters([{}]) })).toEqual(['bridge', 'swap', 'depositAddress', 'reorged']);
  });

  it('rejects unknown or invalid parameters with a 400 naming them', () => {
    const bad: Array<Record<string, string>> = [
      { nope: '1' },
      { status: 'fallback' },
      { failReason: 'WHATEVER' },
      { refundFailReason: 'SLIPPAGE' },
      { requestType: 'teleport' },
      { features: 'app_fees,teleport' },
      { originChainId: '-1' },
      { chainId: 'abc' },
      { startTimestamp: '1.5' },
      { amountUsdMin: '-3' },
      { sortBy: 'amount' },
      { sortDirection: 'up' },
      { limit: '0' },
      { limit: '51' },
      { limit: 'ten' },
      { includeAuthenticatedData: 'yes' },
      { filters: 'not json' },
      { filters: '{"status":"success"}' },
      { filters: '[1]' },
      { filters: '[{"hash":"0x1"}]' },
      { filters: '[{"not:bogus":"x"}]' },
      { filters: '[{"amountUsdMin":["1","2"]}]' },
      { filters: '[{"status":[]}]' },
      { filters: '[{"status":true}]' },
      { continuation: 'garbage' },
      { privateChainsToInclude: 'a,,b' },
    ];
    for (const query of bad) {
      let thrown: unknown;
      try {
        parseListingQuery(query, 'v3');
      } catch (error) {
        thrown = error;
      }
      expect(thrown, JSON.stringify(query)).toBeInstanceOf(SimulatorError);
      expect((thrown as SimulatorError).httpStatus).toBe(400);
    }
  });
});
