import { createHmac } from 'node:crypto';
import { mnemonicSeed } from '../../keys/mnemonicSeed';
import { createKeyPairSignerFromPrivateKeyBytes, getAddressEncoder, getBase58Decoder, type Address, type KeyPairSigner } from '@solana/kit';

/** A Solana keypair derived from the simulator's mnemonic, in the forms clients take it. */
export interface SvmKeypair {
  address: Address;
  signer: KeyPairSigner;
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
 */
export async function deriveSvmKeypair(mnemonicOrSeed: string | Uint8Array, index: number): Promise<SvmKeypair> {
  const seed = typeof mnemonicOrSeed === 'string' ? mnemonicSeed(mnemonicOrSeed) : mnemonicOrSeed;
  const privateKey = slip10Ed25519(seed, [44, 501, index, 0]);
  const signer = await createKeyPairSignerFromPrivateKeyBytes(privateKey);
  const secretKey = new Uint8Array(64);
  secretKey.set(privateKey, 0);
  secretKey.set(getAddressEncoder().encode(signer.address), 32);
  return { address: signer.address, signer, secretKey, secretKeyBase58: getBase58Decoder().decode(secretKey) };
}
