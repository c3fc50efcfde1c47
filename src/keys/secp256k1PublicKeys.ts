import { createECDH } from 'node:crypto';
import { startDerivationCache } from './startDerivationCache';

/** The 33-byte compressed public key of a secp256k1 private key (Node's native secp256k1). */
export function compressedPublicKey(privateKey: Buffer): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey(undefined, 'compressed');
}

/** The 65-byte uncompressed public key (0x04 || x || y) of a secp256k1 private key. */
export function uncompressedPublicKey(privateKey: Buffer): Buffer {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(privateKey);
  return ecdh.getPublicKey();
}

/**
 * `compressedPublicKey`, kept across starts in the start's derivation cache (`startDerivationCache`):
 * OpenSSL's secp256k1 multiplication costs ~1 ms a key and a start derives ~40 public keys of the
 * same mnemonic (BIP-32 parents, the Bitcoin chain's and the EVM chains' accounts) at every run.
 * For the keys a start derives again and again; a key met once (a request's deposit key) takes
 * `compressedPublicKey`.
 */
export function keptCompressedPublicKey(privateKey: Buffer): Buffer {
  return Buffer.from(startDerivationCache().value('secp256k1-compressed-public-key', [privateKey], () => compressedPublicKey(privateKey)));
}

/** `uncompressedPublicKey`, kept across starts as `keptCompressedPublicKey` is. */
export function keptUncompressedPublicKey(privateKey: Buffer): Buffer {
  return Buffer.from(startDerivationCache().value('secp256k1-uncompressed-public-key', [privateKey], () => uncompressedPublicKey(privateKey)));
}
