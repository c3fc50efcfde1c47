import { describe, expect, it } from 'vitest';
import { buildBvmBlock } from '../../../src/nodes/bvm/buildBvmBlock';
import { BvmKeyPair, p2wpkhOf } from '../../../src/nodes/bvm/bvmCrypto';

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
});
