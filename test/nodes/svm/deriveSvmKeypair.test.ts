import { describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { deriveSvmKeypair, slip10Ed25519 } from '../../../src/nodes/svm/deriveSvmKeypair';

const MNEMONIC = 'test test test test test test test test test test test junk';

describe('deriveSvmKeypair', () => {
  it('derives the same keypair every time, and web3.js reads its secret key back to the same address', async () => {
    const first = await deriveSvmKeypair(MNEMONIC, 0);
    const again = await deriveSvmKeypair(MNEMONIC, 0);
    const other = await deriveSvmKeypair(MNEMONIC, 1);
    expect(again.address).toBe(first.address);
    expect(other.address).not.toBe(first.address);
    expect(Keypair.fromSecretKey(first.secretKey).publicKey.toBase58()).toBe(first.address);
  });

  it('derives as SLIP-0010 says for ed25519 (test vector 1, chain m/0H/1H/2H/2H/1000000000H)', () => {
    const seed = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    const key = slip10Ed25519(seed, [0, 1, 2, 2, 1_000_000_000]);
    expect(Buffer.from(key).toString('hex')).toBe('8f94d394a8e8fd6b1bc2f3f49f5c47e385281d5c17e65324b0f62483e37e8793');
  });
});
