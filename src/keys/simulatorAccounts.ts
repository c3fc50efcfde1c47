import { toHex, type Address, type Hex } from 'viem';
import { publicKeyToAddress } from 'viem/utils';
import type { PrivateKeyAccount } from 'viem/accounts';
import { deriveHdNode } from './deriveHdPrivateKeys';
import { keptUncompressedPublicKey } from './secp256k1PublicKeys';
import { nativeKeyAccount, type KeyedPrivateKeyAccount } from './nativeKeyAccount';
import { mnemonicSeed } from './mnemonicSeed';

/**
 * The accounts the simulator uses on every EVM chain, all derived from one mnemonic
 * (m/44'/60'/0'/0/i): indexes 0..count-1 are the funded test accounts (Anvil's own), index 1000
 * is the solver wallet, index 1001 the deployer and index 1002 the gasless relayer (it submits
 * `POST /execute` calls and signed deposits, paying their gas), so contract addresses and the
 * solver and relayer addresses are the same on every chain.
 */
export interface KeyedAccount {
  account: KeyedPrivateKeyAccount;
  address: PrivateKeyAccount['address'];
  privateKey: Hex;
}

export interface SimulatorAccounts {
  testAccounts: KeyedAccount[];
  solver: KeyedPrivateKeyAccount;
  deployer: KeyedPrivateKeyAccount;
  /** SPEC §1.6 gasless execution: submits users' calls and signed deposits and pays their gas. */
  relayer: KeyedPrivateKeyAccount;
}

export const SOLVER_ADDRESS_INDEX = 1000;
export const DEPLOYER_ADDRESS_INDEX = 1001;
export const RELAYER_ADDRESS_INDEX = 1002;

/**
 * Each derived account, kept per mnemonic and address index for the process (like the mnemonic's
 * seed): a process that starts many simulators (a test worker, `scenario run` over a library)
 * derives each key and its public key once, not at every start (~30 secp256k1 multiplications).
 * The accounts are immutable (a key, an address, a signing account built on first use).
 */
const derivedAccounts = new Map<string, Map<number, KeyedAccount>>();

export function deriveSimulatorAccounts(mnemonic: string, count: number): SimulatorAccounts {
  let known = derivedAccounts.get(mnemonic);
  if (!known) derivedAccounts.set(mnemonic, (known = new Map()));
  // native derivation (node:crypto); the seed and the level m/44'/60'/0'/0 are derived once
  let accountLevel: ReturnType<typeof deriveHdNode> | undefined;
  const derive = (addressIndex: number): KeyedAccount => {
    accountLevel ??= deriveHdNode(mnemonicSeed(mnemonic), `m/44'/60'/0'/0`);
    const key = accountLevel.child(addressIndex);
    const privateKey = toHex(key);
    const publicKey = keptUncompressedPublicKey(key);
    const address: Address = publicKeyToAddress(toHex(publicKey));
    // the signing account is built on first use: most test accounts are only ever an address here
    let account: KeyedPrivateKeyAccount | undefined;
    return {
      address,
      privateKey,
      get account() {
        return (account ??= nativeKeyAccount(privateKey, publicKey));
      },
    };
  };
  const at = (addressIndex: number): KeyedAccount => {
    let derived = known.get(addressIndex);
    if (!derived) known.set(addressIndex, (derived = derive(addressIndex)));
    return derived;
  };
  return {
    testAccounts: Array.from({ length: count }, (_, i) => at(i)),
    solver: at(SOLVER_ADDRESS_INDEX).account,
    deployer: at(DEPLOYER_ADDRESS_INDEX).account,
    relayer: at(RELAYER_ADDRESS_INDEX).account,
  };
}
