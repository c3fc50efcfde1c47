import { hexToBytes, numberToHex, stringToBytes, type Hex } from 'viem';
import { keccak256Fast } from '../hash/keccak256Fast';
import { z } from 'zod';

/** How a request id is written wherever one is taken as input (status, signature, fast fill, websocket, admin). */
export const RequestIdSchema = z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'must be a 0x-prefixed 32-byte hex request id');

/**
 * A request id is a deterministic function of the simulator's seed, the quote's sequence number
 * and the canonical quote body: the same seed and the same sequence of quotes give the same ids
 * on every run, and two identical quotes still get distinct ids.
 */
export function deriveRequestId(params: { seed: number; sequence: bigint; canonicalBody: string }): Hex {
  // the ABI encoding of (uint256 seed, uint256 sequence, bytes32 bodyHash): three 32-byte words
  const words = `${numberToHex(BigInt(params.seed), { size: 32 })}${numberToHex(params.sequence, { size: 32 }).slice(2)}${keccak256Fast(stringToBytes(params.canonicalBody)).slice(2)}` as Hex;
  return keccak256Fast(hexToBytes(words));
}

/** JSON with object keys sorted at every level, so equal bodies hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    return typeof v === 'bigint' ? v.toString() : v;
  });
}
