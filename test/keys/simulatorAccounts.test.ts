import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { mnemonicSeed } from '../../src/keys/mnemonicSeed';
import { deriveHdNode } from '../../src/keys/deriveHdPrivateKeys';
import { DEPLOYER_ADDRESS_INDEX, deriveSimulatorAccounts, SOLVER_ADDRESS_INDEX } from '../../src/keys/simulatorAccounts';
import { mnemonicToAccount } from 'viem/accounts';

const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk';

describe('mnemonicSeed', () => {
  it('is the BIP-39 seed @scure/bip39 computes, for ASCII and non-NFKD mnemonics', () => {
    for (const mnemonic of [ANVIL_MNEMONIC, 'legal winner thank year wave sausage worth useful legal winner thank yellow', Array.from({ length: 12 }, (_, i) => ['caf\u00e9', 'ma\u00f1ana', '\u00fcber'][i % 3]).join(' ')]) {
      expect(Buffer.from(mnemonicSeed(mnemonic)).toString('hex')).toBe(Buffer.from(mnemonicToSeedSync(mnemonic)).toString('hex'));
    }
  });

  it("derives Anvil's own default accounts from Anvil's mnemonic", () => {
    const { testAccounts } = deriveSimulatorAccounts(ANVIL_MNEMONIC, 2);
    expect(testAccounts.map((a) => a.address)).toEqual(['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8']);
    expect(testAccounts[0]!.privateKey).toBe('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
  });
});

describe('deriveSimulatorAccounts (native BIP-32)', () => {
  it('derives the same keys and addresses as viem for test, solver and deployer indexes', () => {
    const accounts = deriveSimulatorAccounts(ANVIL_MNEMONIC, 12);
    for (const [index, keyed] of accounts.testAccounts.entries()) {
      const expected = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
      expect(keyed.address).toBe(expected.address);
      expect(keyed.account.address).toBe(expected.address);
    }
    expect(accounts.solver.address).toBe(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: SOLVER_ADDRESS_INDEX }).address);
    expect(accounts.deployer.address).toBe(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: DEPLOYER_ADDRESS_INDEX }).address);
  });

  it('derives hardened paths as BIP-32 test vector 1 does', () => {
    // BIP-32 test vector 1: seed 000102…0f, chain m/0'/1/2'/2/1000000000
    const seed = Uint8Array.from({ length: 16 }, (_, i) => i);
    expect(deriveHdNode(seed, 'm').privateKey.toString('hex')).toBe('e8f32e723decf4051aefac8e2c93c9c5b214313817cdb01a1494b917c8436b35');
    expect(deriveHdNode(seed, "m/0'/1/2'/2").child(1000000000).toString('hex')).toBe('471b76e389e528d6de6d816857e012c5455051cad6660850e58372a6c3e6e7c8');
  });
});
