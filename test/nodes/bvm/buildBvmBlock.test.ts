import { describe, expect, it } from 'vitest';
import { buildBvmBlock } from '../../../src/nodes/bvm/buildBvmBlock';
import { BvmKeyPair, bitcoin, p2wpkhOf } from '../../../src/nodes/bvm/bvmCrypto';
import type { BvmTransactionRecord } from '../../../src/nodes/bvm/bvmLedgerTypes';

describe('buildBvmBlock', () => {
  it("mines headers bitcoinjs-lib accepts: its proof of work, its id, the previous block's hash", () => {
    const { script } = p2wpkhOf(new BvmKeyPair(new Uint8Array(32).fill(5)).publicKey);
    let previous: ReturnType<typeof buildBvmBlock>['mined'] | undefined;
    for (let height = 1; height <= 40; height++) {
      const { mined } = buildBvmBlock({ height, previous, included: [], script, timestamp: 1_700_000_000 + height, ...(height % 7 === 0 ? { extraNonce: height } : {}) });
      expect(mined.block.checkProofOfWork()).toBe(true);
      expect(mined.hash).toBe(mined.block.getId());
      if (previous) expect(Buffer.from(mined.block.prevHash!).equals(Buffer.from(previous.block.getHash()))).toBe(true);
      // the first nonce that meets the target: none below it does
      const nonce = mined.block.nonce;
      for (mined.block.nonce = 0; mined.block.nonce < nonce; mined.block.nonce++) expect(mined.block.checkProofOfWork()).toBe(false);
      mined.block.nonce = nonce;
      previous = mined;
    }
  });

  it("commits to its transactions as bitcoinjs-lib computes it: the merkle root of 1 to 6 transactions (odd levels too), with and without witnesses, and each one's id", () => {
    const { script } = p2wpkhOf(new BvmKeyPair(new Uint8Array(32).fill(6)).publicKey);
    const record = (seed: number, witness: boolean): BvmTransactionRecord => {
      const tx = new bitcoin.Transaction();
      tx.version = 2;
      tx.addInput(new Uint8Array(32).fill(seed), seed, 0xfffffffd);
      tx.addOutput(script, BigInt(1_000 * seed));
      if (witness) tx.setWitness(0, [new Uint8Array(72).fill(seed), new Uint8Array(33).fill(seed)]);
      return { txid: tx.getId(), tx, hex: tx.toHex(), fee: BigInt(seed), vsize: tx.virtualSize(), time: 1_700_000_000, prevouts: [] };
    };
    for (const witness of [false, true]) {
      for (let count = 0; count <= 5; count++) {
        const included = Array.from({ length: count }, (_, index) => record(index + 1, witness));
        const { mined, records } = buildBvmBlock({ height: 1, previous: undefined, included, script, timestamp: 1_700_000_000 });
        expect(Buffer.from(mined.block.merkleRoot!).equals(Buffer.from(bitcoin.Block.calculateMerkleRoot(mined.block.transactions!)))).toBe(true);
        expect(mined.block.checkTxRoots()).toBe(true);
        expect(mined.txids).toEqual(mined.block.transactions!.map((tx) => tx.getId()));
        expect(records.map((placed) => placed.txid)).toEqual(mined.txids);
        expect(bitcoin.Block.fromHex(mined.block.toHex()).getId()).toBe(mined.hash);
      }
    }
  });
});
