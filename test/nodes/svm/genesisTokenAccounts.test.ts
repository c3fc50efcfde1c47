import { AccountState, getTokenDecoder, getTokenEncoder } from '@solana-program/token';
import { none, some, type Address } from '@solana/kit';
import { describe, expect, it } from 'vitest';
import { genesisTokenAccountWriter } from '../../../src/nodes/svm/genesisTokenAccounts';
import { NATIVE_MINT } from '../../../src/nodes/svm/svmProgramIds';

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' as Address;
const OWNERS = ['oeYf6KAJkLYhBuR8CiGc6L4D4Xtfepr85fuDgA9kq96', '11111111111111111111111111111111', 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'] as Address[];

describe('genesisTokenAccountWriter', () => {
  it("writes what getTokenEncoder() writes for an initialized account: plain and wrapped SOL, amounts from 0 to u64's largest, the same address again", () => {
    const write = genesisTokenAccountWriter();
    for (const owner of [...OWNERS, OWNERS[0]!]) {
      for (const amount of [0n, 1n, 1_000_000n * 10n ** 6n, 2n ** 64n - 1n]) {
        for (const nativeRentReserve of [undefined, 2_039_280n]) {
          const mint = nativeRentReserve === undefined ? MINT : NATIVE_MINT;
          const expected = getTokenEncoder().encode({
            mint,
            owner,
            amount,
            delegate: none(),
            state: AccountState.Initialized,
            isNative: nativeRentReserve === undefined ? none() : some(nativeRentReserve),
            delegatedAmount: 0n,
            closeAuthority: none(),
          });
          const written = write({ mint, owner, amount, ...(nativeRentReserve === undefined ? {} : { nativeRentReserve }) });
          expect(Buffer.from(written).toString('hex')).toBe(Buffer.from(expected).toString('hex'));
          const decoded = getTokenDecoder().decode(written);
          expect([decoded.mint, decoded.owner, decoded.amount, decoded.state]).toEqual([mint, owner, amount, AccountState.Initialized]);
        }
      }
    }
  });
});
