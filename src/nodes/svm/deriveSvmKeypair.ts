import { createHmac } from 'node:crypto';
import { mnemonicSeed } from '../../keys/mnemonicSeed';
import { startDerivationCache } from '../../keys/startDerivationCache';
import { getAddressDecoder, getBase58Decoder, type Address } from '@solana/kit';
import { ed25519PublicKey, svmKeySigner, type SvmSigner } from './svmKeySigner';

/** A Solana keypair derived from the simulator's mnemonic, in the forms clients take it. */
export interface SvmKeypair {
  address: Address;
  /** Signs as `address` (node:crypto; the key is imported at its first signature). */
  signer: SvmSigner;
  /** The 64-byte secret key (seed ‖ public key), as `Keypair.fromSecretKey` and the Solana CLI's key files take it. */
  secretKey: Uint8Array;
  /** `secretKey` in base58, as wallets export it. */
  secretKeyBase58: string;
}

const HARDENED = 0x8000_0000;

/** SLIP-0010 ed25519 derivation (hardened steps only), as Solana wallets derive from a mnemonic. */
export function slip10Ed25519(seed: Uint8Array, path: readonly number[]): Uint8Array {
  let digest = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  for (const index of path) {
    const data = Buffer.alloc(37);
    digest.copy(data, 1, 0, 32);
    data.writeUInt32BE((index | HARDENED) >>> 0, 33);
    digest = createHmac('sha512', digest.subarray(32)).update(data).digest();
  }
  return new Uint8Array(digest.subarray(0, 32));
}

/**
 * The keypair at m/44'/501'/`index`'/0' of `mnemonic` (the path Phantom and `solana-keygen` use
 * for account `index`). `seed` is the mnemonic's BIP-39 seed when the caller derives many.
 * The public key is the start's derivation cache's (`startDerivationCache`, kept across starts; an
 * Ed25519 key import costs ~1 ms, a start derives ~15 keys), derived with node:crypto when it has
 * none; nothing is imported until the key first signs.
 */
export async function deriveSvmKeypair(mnemonicOrSeed: string | Uint8Array, index: number): Promise<SvmKeypair> {
  const seed = typeof mnemonicOrSeed === 'string' ? mnemonicSeed(mnemonicOrSeed) : mnemonicOrSeed;
  const privateKey = slip10Ed25519(seed, [44, 501, index, 0]);
  const publicKey = startDerivationCache().value('ed25519-public-key', [privateKey], () => ed25519PublicKey(privateKey));
  const address = getAddressDecoder().decode(publicKey);
  const secretKey = new Uint8Array(64);
  secretKey.set(privateKey, 0);
  secretKey.set(publicKey, 32);
  return { address, signer: svmKeySigner(privateKey, address), secretKey, secretKeyBase58: getBase58Decoder().decode(secretKey) };
}
