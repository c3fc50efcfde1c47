import { encodeAbiParameters, hexToBytes, stringToBytes, type Hex } from 'viem';
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
  const encoded = encodeAbiParameters(
    [{ type: 'uint256' }, { type: 'uint256' }, { type: 'bytes32' }],
    [BigInt(params.seed), params.sequence, keccak256Fast(stringToBytes(params.canonicalBody))],
  );
  return keccak256Fast(hexToBytes(encoded));
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
