import { keccak256, stringToBytes } from 'viem';
import { describe, expect, it } from 'vitest';
import { keccak256Fast, loadFastKeccak } from '../../../src/domain/hash/keccak256Fast';

describe('keccak256Fast', () => {
  it("gives viem's digest before and after the WebAssembly hasher is loaded, on empty, short and multi-block inputs", async () => {
    const inputs = ['', 'abc', 'x'.repeat(135), 'x'.repeat(136), 'x'.repeat(137), '{"a":1,"b":[2,3]}'.repeat(300)].map((text) => stringToBytes(text));
    const before = inputs.map((bytes) => keccak256Fast(bytes));
    await loadFastKeccak();
    const after = inputs.map((bytes) => keccak256Fast(bytes));
    const expected = inputs.map((bytes) => keccak256(bytes));
    expect(before).toEqual(expected);
    expect(after).toEqual(expected);
    // the hasher is reset between calls: the same input twice, interleaved with another
    expect([keccak256Fast(inputs[1]!), keccak256Fast(inputs[5]!), keccak256Fast(inputs[1]!)]).toEqual([expected[1], expected[5], expected[1]]);
  });
});
