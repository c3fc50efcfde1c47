import { hexToBytes, keccak256, type Hex } from 'viem';

const EMPTY_BLOOM_BYTES = 256;

/**
 * Whether a block's `logsBloom` (Ethereum yellow paper §4.3.1, M3:2048) may hold a log with every
 * one of `items` (an emitting address, a topic): false means surely not, so the block's logs need
 * not be fetched. A bloom that is missing or malformed may hold anything.
 */
export function logsBloomMayContain(logsBloom: Hex | null | undefined, items: readonly Hex[]): boolean {
  if (!logsBloom) return true;
  const bloom = hexToBytes(logsBloom);
  if (bloom.length !== EMPTY_BLOOM_BYTES) return true;
  return items.every((item) => {
    const hash = hexToBytes(keccak256(item));
    for (let pair = 0; pair < 6; pair += 2) {
      const bit = ((hash[pair]! << 8) | hash[pair + 1]!) & 0x7ff;
      if ((bloom[EMPTY_BLOOM_BYTES - 1 - (bit >> 3)]! & (1 << (bit & 7))) === 0) return false;
    }
    return true;
  });
}
