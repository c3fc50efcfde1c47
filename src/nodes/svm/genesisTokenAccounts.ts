import { getAddressEncoder, type Address } from '@solana/kit';
import { TOKEN_ACCOUNT_SIZE } from './svmProgramIds';

/** What a genesis token account holds: an initialized account with no delegate and no close authority. */
export interface GenesisTokenAccount {
  mint: Address;
  owner: Address;
  amount: bigint;
  /** A wrapped-SOL account: the rent-exempt reserve its lamports keep beside the amount (`isNative`). */
  nativeRentReserve?: bigint;
}

/** `AccountState.Initialized` of the SPL Token program. */
const INITIALIZED = 1;

/**
 * Writes genesis token accounts' data, byte for byte what `getTokenEncoder()` of
 * @solana-program/token writes for them (mint, owner, amount, `delegate: none()`, `Initialized`,
 * `isNative`, `delegatedAmount: 0`, `closeAuthority: none()`; 165 bytes). The genesis writes about a
 * hundred token accounts over a few mints and owners: kit's encoder is built anew for each and
 * base58-decodes both addresses of each in BigInt arithmetic, where this decodes each address once.
 */
export function genesisTokenAccountWriter(): (account: GenesisTokenAccount) => Uint8Array {
  const addressEncoder = getAddressEncoder();
  const bytesOf = new Map<Address, Uint8Array>();
  const addressBytes = (at: Address): Uint8Array => {
    let bytes = bytesOf.get(at);
    if (bytes === undefined) bytesOf.set(at, (bytes = new Uint8Array(addressEncoder.encode(at))));
    return bytes;
  };
  return ({ mint, owner, amount, nativeRentReserve }) => {
    const data = new Uint8Array(TOKEN_ACCOUNT_SIZE);
    const view = new DataView(data.buffer);
    data.set(addressBytes(mint), 0);
    data.set(addressBytes(owner), 32);
    view.setBigUint64(64, amount, true);
    // 72: delegate, COption<Pubkey> None (tag 0 and 32 zero bytes)
    data[108] = INITIALIZED;
    if (nativeRentReserve !== undefined) {
      view.setUint32(109, 1, true);
      view.setBigUint64(113, nativeRentReserve, true);
    }
    // 121: delegatedAmount 0; 129: closeAuthority, COption<Pubkey> None
    return data;
  };
}
