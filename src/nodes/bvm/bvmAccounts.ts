import { createHash } from 'node:crypto';
import { deriveHdNode } from '../../keys/deriveHdPrivateKeys';
import { mnemonicSeed } from '../../keys/mnemonicSeed';
import { keptCompressedPublicKey } from '../../keys/secp256k1PublicKeys';
import { BvmKeyPair, p2wpkhOf } from './bvmCrypto';

/** A p2wpkh key of the BVM chain: its `bcrt1q` address, output script, and the key as a wallet exports it (WIF). */
export interface BvmKey {
  address: string;
  script: Uint8Array;
  keyPair: BvmKeyPair;
  wif: string;
}

/**
 * The BVM chain's keys, all from the simulator's mnemonic along BIP84 paths on the test coin
 * type (m/84'/1'/account'/0/i): account 0 holds the funded test accounts (i = 0..count-1), the
 * simulator's roles have accounts of their own, so every address is the same on every run.
 */
export interface BvmAccounts {
  testAccounts: BvmKey[];
  /** Pays fills and refunds; owns the deposit addresses. */
  solver: BvmKey;
  /** Mines the genesis blocks and funds the others from their matured coinbases. */
  miner: BvmKey;
  /** The root the per-request deposit keys are derived from (`depositKeyFor`). */
  depositRoot: BvmKey;
}

export const BVM_ROLE_ACCOUNTS = { solver: 1, miner: 2, depositRoot: 3 } as const;

/** The key of `privateKey`; `knownPublicKey` (compressed) spares deriving its public key. */
export function bvmKeyOf(privateKey: Uint8Array, knownPublicKey?: Uint8Array): BvmKey {
  const keyPair = new BvmKeyPair(privateKey, knownPublicKey);
  const { address, script } = p2wpkhOf(keyPair.publicKey);
  return { address, script, keyPair, wif: keyPair.toWIF() };
}

/** A key from its WIF (what `chains[].accounts[].privateKey` lists). */
export function bvmKeyFromWif(wif: string): BvmKey {
  return bvmKeyOf(BvmKeyPair.fromWIF(wif).privateKey);
}

export function deriveBvmAccounts(mnemonic: string, count: number): BvmAccounts {
  // Node's native PBKDF2 and BIP-32 steps: the same keys as @scure's, without ~0.3 s of JavaScript at every
  // start; the public keys from the start's derivation cache (~1 ms of OpenSSL each, a dozen keys)
  const seed = mnemonicSeed(mnemonic);
  // each account's node once: the test accounts are children of the same one
  const nodes = new Map<number, ReturnType<typeof deriveHdNode>>();
  const nodeOf = (account: number) => nodes.get(account) ?? nodes.set(account, deriveHdNode(seed, `m/84'/1'/${account}'/0`)).get(account)!;
  const at = (account: number, index: number) => {
    const privateKey = nodeOf(account).child(index);
    return bvmKeyOf(privateKey, new Uint8Array(keptCompressedPublicKey(privateKey)));
  };
  return {
    testAccounts: Array.from({ length: count }, (_, i) => at(0, i)),
    solver: at(BVM_ROLE_ACCOUNTS.solver, 0),
    miner: at(BVM_ROLE_ACCOUNTS.miner, 0),
    depositRoot: at(BVM_ROLE_ACCOUNTS.depositRoot, 0),
  };
}

/**
 * The key of a request's own deposit address (SPEC §1.6): sha256(deposit root key ‖ request id),
 * so the solver can spend whatever the address receives, and the address is the same on every run.
 */
export function depositKeyFor(accounts: BvmAccounts, requestId: string): BvmKey {
  const root = accounts.depositRoot.keyPair.privateKey;
  return bvmKeyOf(new Uint8Array(createHash('sha256').update(root).update(requestId.toLowerCase()).digest()));
}
