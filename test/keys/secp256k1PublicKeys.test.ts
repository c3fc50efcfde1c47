import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as ecc from '@bitcoinerlab/secp256k1';
import { compressedPublicKey, keptCompressedPublicKey, keptUncompressedPublicKey, uncompressedPublicKey } from '../../src/keys/secp256k1PublicKeys';
import { startDerivationCache } from '../../src/keys/startDerivationCache';

/** A private key of this test alone (the process's derivation cache is shared). */
const privateKey = createHash('sha256').update(`secp256k1PublicKeys.test ${process.pid} ${performance.now()}`).digest();

describe('secp256k1 public keys', () => {
  it('are the curve\'s (compressed and uncompressed), natively and kept', () => {
    expect(Buffer.from(compressedPublicKey(privateKey)).equals(Buffer.from(ecc.pointFromScalar(privateKey, true)!))).toBe(true);
    expect(Buffer.from(uncompressedPublicKey(privateKey)).equals(Buffer.from(ecc.pointFromScalar(privateKey, false)!))).toBe(true);
    expect(keptCompressedPublicKey(privateKey).equals(compressedPublicKey(privateKey))).toBe(true);
    expect(keptUncompressedPublicKey(privateKey).equals(uncompressedPublicKey(privateKey))).toBe(true);
  });

  it('a kept one is derived once, then read from the start\'s derivation cache', () => {
    const key = createHash('sha256').update(privateKey).digest();
    const first = keptCompressedPublicKey(key);
    const fromCache = startDerivationCache().value('secp256k1-compressed-public-key', [key], () => {
      throw new Error('derived again');
    });
    expect(Buffer.from(fromCache).equals(first)).toBe(true);
  });
});
