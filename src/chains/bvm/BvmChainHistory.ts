import { ChainError } from '../../errors/IntentsimError';
import type { DoubleSpendCapability } from '../capabilities/DoubleSpendCapability';
import { bvmKeyFromWif, type BvmKey, type BvmLedger, BvmRpcError, p2wpkhFee, signP2wpkhTransaction } from '../../nodes/bvm';

/**
 * The BVM chain's history cheats (the control plane's `reorg`, `snapshot`, `revert`) and the
 * double spend of a user's transaction, on the node's ledger: a reorg mines a competing branch
 * of empty blocks (paying the miner) and puts the dropped transactions back in the mempool;
 * snapshot ids are the ledger's (`0x0`, `0x1`, …).
 */
export class BvmChainHistory implements DoubleSpendCapability {
  constructor(private readonly deps: { chainId: number; ledger: () => BvmLedger; miner: () => BvmKey }) {}

  async snapshot(): Promise<string> {
    return this.deps.ledger().snapshot();
  }

  /** Back to a snapshot (used up then, with every later one). */
  async revert(snapshotId: string): Promise<void> {
    const id = `0x${BigInt(snapshotId).toString(16)}`;
    if (!this.deps.ledger().revert(id)) throw new ChainError(`chain ${this.deps.chainId} (BVM): no snapshot ${snapshotId} (a snapshot can be reverted to once)`);
  }

  /** Replaces the last `depth` blocks with as many empty ones; their transactions go back to the mempool. */
  async reorg(depth: number): Promise<void> {
    this.nodeCall(() => this.deps.ledger().reorg(depth, this.deps.miner().script));
  }

  async doubleSpend(privateKey: string, txHash: string, options: { inReorgOfDepth?: number } = {}): Promise<string> {
    const ledger = this.deps.ledger();
    const txid = txHash.replace(/^0x/, '').toLowerCase();
    const record = ledger.transaction(txid);
    if (!record) throw new ChainError(`chain ${this.deps.chainId} (BVM): no transaction ${txid} to double-spend`);
    const key = bvmKeyFromWif(privateKey);
    const inputs = record.tx.ins.map((input, index) => {
      const prevout = record.prevouts[index]!;
      if (Buffer.from(prevout.script).toString('hex') !== Buffer.from(key.script).toString('hex')) throw new ChainError(`chain ${this.deps.chainId} (BVM): input ${index} of ${txid} is not ${key.address}'s to spend again`);
      return { coin: { txid: Buffer.from(Uint8Array.from(input.hash).reverse()).toString('hex'), vout: input.index, value: prevout.value, script: prevout.script, height: null, coinbase: false }, key };
    });
    // more than the original paid, and more than its own relay: a replacement the mempool takes
    const fee = record.fee + p2wpkhFee(inputs.length, 1) * 2n;
    const total = record.prevouts.reduce((sum, prevout) => sum + prevout.value, 0n);
    const conflict = signP2wpkhTransaction(inputs, [{ script: key.script, value: total - fee }]);
    const depth = options.inReorgOfDepth;
    if (depth === undefined) {
      if (record.height !== undefined) throw new ChainError(`chain ${this.deps.chainId} (BVM): ${txid} is mined; double-spend it in a reorg (inReorgOfDepth)`);
      return this.nodeCall(() => ledger.submit(conflict.toHex()).txid);
    }
    if (record.height === undefined || record.height <= ledger.height - depth) throw new ChainError(`chain ${this.deps.chainId} (BVM): ${txid} is not mined in the last ${depth} block(s)`);
    this.nodeCall(() => ledger.reorg(depth, this.deps.miner().script, [conflict.toHex()]));
    return conflict.getId();
  }

  private nodeCall<T>(call: () => T): T {
    try {
      return call();
    } catch (error) {
      if (error instanceof BvmRpcError) throw new ChainError(`chain ${this.deps.chainId} (BVM) refused: ${error.message} (code ${error.code})`, { cause: error });
      throw error;
    }
  }
}
