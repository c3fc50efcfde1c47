import { hexToBytes, keccak256, type Hex } from 'viem';

const BLOOM_BYTES = 256;

/**
 * A test of blocks' `logsBloom` (Ethereum yellow paper §4.3.1, M3:2048): whether a block may hold
 * a log with every one of `items` (an emitting address, a topic). False means surely not, so the
 * block's logs need not be fetched; a bloom that is missing or malformed may hold anything. The
 * items' bits are computed once.
 */
export function logsBloomFilter(items: readonly Hex[]): (logsBloom: Hex | null | undefined) => boolean {
  const bits = items.flatMap((item) => {
    const hash = hexToBytes(keccak256(item));
    return [0, 2, 4].map((pair) => ((hash[pair]! << 8) | hash[pair + 1]!) & 0x7ff);
  });
  // bit i of the 2048 is bit (i mod 8) of byte 255 − ⌊i / 8⌋, two hex digits each after "0x"
  const checks = bits.map((bit) => ({ at: 2 + 2 * (BLOOM_BYTES - 1 - (bit >> 3)), mask: 1 << (bit & 7) }));
  return (logsBloom) => {
    if (!logsBloom || logsBloom.length !== 2 + 2 * BLOOM_BYTES) return true;
    return checks.every(({ at, mask }) => (Number.parseInt(logsBloom.slice(at, at + 2), 16) & mask) !== 0);
  };
}
