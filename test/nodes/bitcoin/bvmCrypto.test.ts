import * as bitcoin from 'bitcoinjs-lib';
import { describe, expect, it } from 'vitest';
import { ECPair, BVM_NETWORK, ecc, p2wpkhOf } from '../../../src/nodes/bitcoin/bvmCrypto';

describe('the BVM chain\'s secp256k1 wiring', () => {
  it('passes bitcoinjs-lib\'s own self-test of the ecc library (the simulator skips it at start)', () => {
    // a new object is a new instance to bitcoinjs-lib, so this runs its verifyEcc on the same functions
    expect(() => bitcoin.initEccLib({ ...ecc })).not.toThrow();
    bitcoin.initEccLib(ecc, { DANGER_DO_NOT_VERIFY_ECCLIB: true });
  });

  it('gives the public key secp256k1 gives (Node\'s native point multiplication), compressed and not', () => {
    const privateKey = new Uint8Array(32).fill(7);
    const pair = ECPair.fromPrivateKey(privateKey, { network: BVM_NETWORK });
    expect(Buffer.from(pair.publicKey).toString('hex')).toBe(Buffer.from(ecc.pointFromScalar(privateKey, true)!).toString('hex'));
    const uncompressed = ECPair.fromPrivateKey(privateKey, { network: BVM_NETWORK, compressed: false });
    expect(Buffer.from(uncompressed.publicKey).toString('hex')).toBe(Buffer.from(ecc.pointFromScalar(privateKey, false)!).toString('hex'));
    // a signature by the pair verifies against that key
    const hash = new Uint8Array(32).fill(1);
    expect(ecc.verify(hash, pair.publicKey, pair.sign(hash))).toBe(true);
    expect(p2wpkhOf(pair.publicKey).address).toMatch(/^bcrt1q/);
  });
});
