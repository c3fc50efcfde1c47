import { createPrivateKey, createPublicKey, KeyObject, sign } from 'node:crypto';
import { getAddressDecoder, type Address, type KeyPairSigner, type MessagePartialSigner, type SignatureBytes, type TransactionPartialSigner } from '@solana/kit';

/**
 * Whoever signs an SVM transaction here: a @solana/kit signer with an address that signs messages
 * and transactions. A kit `KeyPairSigner` (a user's key, a test's `generateKeyPairSigner()`) is one,
 * and so is an `svmKeySigner` (the simulator's own keys).
 */
export type SvmSigner = MessagePartialSigner & TransactionPartialSigner;

/** The DER prefix that makes a 32-byte Ed25519 seed a PKCS#8 private key (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The Ed25519 private key `seed` (32 bytes) as node:crypto takes it. */
export function ed25519PrivateKeyObject(seed: Uint8Array): KeyObject {
  return createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The 32-byte Ed25519 public key of the private key `seed` (32 bytes). */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  const spki = createPublicKey(ed25519PrivateKeyObject(seed)).export({ format: 'der', type: 'spki' });
  return new Uint8Array(spki.subarray(spki.length - 32));
}

/** The node:crypto key each `svmKeySigner` signs with, made at its first signature. */
const keyOfSigner = new WeakMap<SvmSigner, () => KeyObject>();
/** A kit `KeyPairSigner`'s WebCrypto private key as node:crypto takes it, converted once. */
const keyOfCryptoKey = new WeakMap<KeyPairSigner['keyPair']['privateKey'], KeyObject>();

/**
 * A signer for the Ed25519 key `seed` (32 bytes) at `address` (its public key), signing with
 * node:crypto: the same signatures (Ed25519 is deterministic) as the `KeyPairSigner` @solana/kit
 * makes of the seed, without WebCrypto. Making one costs nothing: the private key is imported
 * (~1 ms) at its first signature, and most of the keys a start derives never sign.
 */
export function svmKeySigner(seed: Uint8Array, address: Address): SvmSigner {
  let key: KeyObject | undefined;
  const keyObject = () => (key ??= ed25519PrivateKeyObject(seed));
  const signBytes = (bytes: Uint8Array) => new Uint8Array(sign(null, bytes, keyObject())) as SignatureBytes;
  const signer: SvmSigner = Object.freeze({
    address,
    signMessages: async (messages) => messages.map((message) => Object.freeze({ [address]: signBytes(message.content as Uint8Array) })),
    signTransactions: async (transactions) => transactions.map((transaction) => Object.freeze({ [address]: signBytes(transaction.messageBytes as unknown as Uint8Array) })),
  });
  keyOfSigner.set(signer, keyObject);
  return signer;
}

/**
 * The node:crypto key that signs as `signer`: an `svmKeySigner`'s own, a kit `KeyPairSigner`'s
 * private key converted (once); undefined for a signer whose key this process cannot read.
 */
export function signingKeyOf(signer: SvmSigner): KeyObject | undefined {
  const own = keyOfSigner.get(signer);
  if (own) return own();
  if (!('keyPair' in signer)) return undefined;
  const privateKey = (signer as KeyPairSigner).keyPair.privateKey;
  let key = keyOfCryptoKey.get(privateKey);
  if (!key) {
    key = KeyObject.from(privateKey);
    keyOfCryptoKey.set(privateKey, key);
  }
  return key;
}

/** A signer for the Ed25519 private key `seed` (32 bytes), its address derived here (node:crypto). */
export function svmSignerOfSeed(seed: Uint8Array): SvmSigner {
  return svmKeySigner(seed, getAddressDecoder().decode(ed25519PublicKey(seed)));
}
