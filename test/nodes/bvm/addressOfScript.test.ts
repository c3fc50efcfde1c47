import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addressOfScript, bitcoin, BVM_NETWORK } from '../../../src/nodes/bvm/bvmCrypto';

/** bitcoinjs's own answer, what addressOfScript gave before its segwit v0 shortcut. */
const bitcoinjsAddressOf = (script: Uint8Array) => {
  try {
    return bitcoin.address.fromOutputScript(script, BVM_NETWORK);
  } catch {
    return undefined;
  }
};
const bytes = (length: number, seed: number) => Uint8Array.from(createHash('sha512').update(`${seed}`).digest().subarray(0, length));

describe('addressOfScript (src/nodes/bvm/bvmCrypto.ts)', () => {
  it("gives bitcoinjs's address for segwit v0, taproot, legacy and malformed scripts alike", () => {
    const scripts = [
      ...Array.from({ length: 20 }, (_, i) => Uint8Array.from([0x00, 0x14, ...bytes(20, i)])),
      ...Array.from({ length: 20 }, (_, i) => Uint8Array.from([0x00, 0x20, ...bytes(32, 100 + i)])),
      ...Array.from({ length: 5 }, (_, i) => Uint8Array.from([0x51, 0x20, ...bytes(32, 200 + i)])),
      Uint8Array.from([0x00, 0x15, ...bytes(21, 1)]),
      Uint8Array.from([0x00, 0x14, ...bytes(21, 2)]),
      Uint8Array.from([0x00, 0x13, ...bytes(19, 3)]),
      Uint8Array.from([0x6a, 0x04, 1, 2, 3, 4]),
      bitcoin.payments.p2pkh({ hash: Buffer.from(bytes(20, 4)), network: BVM_NETWORK }).output!,
      bitcoin.payments.p2sh({ hash: Buffer.from(bytes(20, 5)), network: BVM_NETWORK }).output!,
      new Uint8Array(),
    ];
    for (const script of scripts) expect(addressOfScript(script)).toBe(bitcoinjsAddressOf(script));
    expect(addressOfScript(scripts[0]!)).toMatch(/^bcrt1q/);
  });
});
