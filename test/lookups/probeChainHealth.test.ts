import { describe, expect, it } from 'vitest';
import { zeroAddress } from 'viem';
import type { Currency } from '../../src/domain/chain/currency';
import type { ChainDescription } from '../../src/domain/chain/chainDescription';
import { probeChainHealth } from '../../src/lookups/probeChainHealth';

const native = { chainId: 1, address: zeroAddress, symbol: 'ETH', name: 'Ether', decimals: 18, isNative: true, logoURI: '', verified: true, priceUsdMicros: 1n } satisfies Currency;
const chainAnswering = (balanceOf: () => Promise<bigint>) => ({
  describe: () => ({ solverAddress: `0x${'11'.repeat(20)}` }) as ChainDescription,
  nativeCurrency: () => native,
  balanceOf,
});

describe('probeChainHealth', () => {
  it('a node that answers the read is healthy; one that fails it is not (no error escapes)', async () => {
    expect(await probeChainHealth(chainAnswering(async () => 5n))).toBe(true);
    expect(await probeChainHealth(chainAnswering(async () => Promise.reject(new Error('connection refused'))))).toBe(false);
  });
});
