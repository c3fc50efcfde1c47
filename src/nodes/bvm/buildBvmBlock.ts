import { bitcoin, sha256d, toHex, transactionIdOf } from './bvmCrypto';
import { BVM_PARAMS, blockSubsidy } from './bvmConsensus';
import type { BvmBlock, BvmTransactionRecord } from './bvmLedgerTypes';

/**
 * A block at `height` on `previous` holding `included` after its coinbase, as a regtest miner
 * builds it: a BIP34 coinbase paying the subsidy plus the fees to `script`, the BIP141 witness
 * commitment when a transaction has witnesses, a real header meeting regtest's proof of work.
 * `extraNonce` (a reorg's replacement blocks) follows the height in the coinbase's scriptSig.
 * Returns the block and its transactions' records (the coinbase first), each placed in it.
 */
export function buildBvmBlock(params: { height: number; previous: BvmBlock | undefined; included: readonly BvmTransactionRecord[]; script: Uint8Array; timestamp: number; extraNonce?: number }): {
  mined: BvmBlock;
  records: BvmTransactionRecord[];
} {
  const { height, previous, included, script } = params;
  const fees = included.reduce((sum, record) => sum + record.fee, 0n);
  const coinbase = new bitcoin.Transaction();
  coinbase.version = 2;
  // BIP34: the coinbase's scriptSig starts with the block height; an extra nonce after it tells apart blocks otherwise alike
  const extraNonce = params.extraNonce ? bitcoin.script.number.encode(params.extraNonce) : bitcoin.opcodes.OP_0;
  coinbase.addInput(new Uint8Array(32), 0xffffffff, 0xffffffff, bitcoin.script.compile([bitcoin.script.number.encode(height), extraNonce]));
  coinbase.addOutput(script, blockSubsidy(height) + fees);
  const transactions = [coinbase, ...included.map((record) => record.tx)];
  let witnessCommit: Uint8Array | undefined;
  if (included.some((record) => record.tx.hasWitnesses())) {
    // BIP141: the coinbase commits to the witness merkle root with a 32-byte reserved value
    const reserved = new Uint8Array(32);
    coinbase.setWitness(0, [reserved]);
    const commitment = witnessCommitmentOf(included, reserved);
    coinbase.addOutput(bitcoin.script.compile([bitcoin.opcodes.OP_RETURN, Uint8Array.from([0xaa, 0x21, 0xa9, 0xed, ...commitment])]), 0n);
    witnessCommit = commitment;
  }
  // each transaction's id once (the coinbase's, now that its outputs are final; the others' are their records'),
  // hashed natively: bitcoinjs hashes a transaction again at every getId() and merkle root, in JavaScript (the
  // genesis mines 100+ blocks)
  const coinbaseBytes = coinbase.toBuffer();
  const coinbaseTxid = witnessCommit ? transactionIdOf(coinbase) : sha256d(coinbaseBytes).reverse().toString('hex');
  const txids = [coinbaseTxid, ...included.map((record) => record.txid)];
  const block = new bitcoin.Block();
  block.version = BVM_PARAMS.blockVersion;
  // the previous block's hash in internal byte order (its id reversed)
  block.prevHash = previous ? Buffer.from(previous.hash, 'hex').reverse() : new Uint8Array(32);
  block.merkleRoot = merkleRootOf(txids);
  block.timestamp = Math.max(params.timestamp, previous?.time ?? 0);
  block.bits = BVM_PARAMS.bits;
  block.transactions = transactions;
  if (witnessCommit) block.witnessCommit = witnessCommit;
  const hash = mineHeader(block);
  const mined: BvmBlock = {
    hash,
    height,
    block,
    time: block.timestamp,
    txids,
    previousHash: previous?.hash ?? null,
    size: block.byteLength(false, true),
    weight: block.weight(),
  };
  const coinbaseRecord: BvmTransactionRecord = { txid: txids[0]!, tx: coinbase, hex: toHex(coinbaseBytes), fee: 0n, vsize: coinbase.virtualSize(), time: mined.time, prevouts: [] };
  return { mined, records: [coinbaseRecord, ...included].map((record, index) => ({ ...record, blockHash: mined.hash, height, index })) };
}

/**
 * The merkle root of transactions by their ids (as `bitcoin.Block.calculateMerkleRoot` computes
 * it, internal byte order): pairs of hashes double-SHA-256'd level by level, an odd one out paired
 * with itself; one transaction's root is its own hash.
 */
function merkleRootOf(txids: readonly string[]): Buffer {
  return merkleRootOfHashes(txids.map((txid) => Buffer.from(txid, 'hex').reverse()));
}

/**
 * BIP141's witness commitment (as `bitcoin.Block.calculateMerkleRoot(transactions, true)` computes
 * it): the merkle root of the transactions' witness ids — the coinbase's is 32 zero bytes, another's
 * the double SHA-256 of its serialization with witnesses — hashed with the
 * coinbase's reserved value.
 */
function witnessCommitmentOf(included: readonly BvmTransactionRecord[], reserved: Uint8Array): Buffer {
  const root = merkleRootOfHashes([Buffer.alloc(32), ...included.map((record) => sha256d(record.tx.toBuffer()))]);
  return sha256d(Buffer.concat([root, reserved]));
}

function merkleRootOfHashes(hashes: readonly Buffer[]): Buffer {
  let level = [...hashes];
  while (level.length > 1) {
    const next: Buffer[] = [];
    for (let index = 0; index < level.length; index += 2) next.push(sha256d(Buffer.concat([level[index]!, level[index + 1] ?? level[index]!])));
    level = next;
  }
  return level[0]!;
}

/**
 * Sets the header's nonce to the first that meets its target (`Block.checkProofOfWork`) and returns
 * the block's id: the header hashed with Node's native SHA-256, not bitcoinjs-lib's pure-JavaScript
 * one (the genesis mines a hundred blocks at every start).
 */
function mineHeader(block: bitcoin.Block): string {
  const header = Buffer.from(block.toBuffer(true));
  const target = bitcoin.Block.calculateTarget(block.bits);
  for (let nonce = 0; nonce <= 0xffffffff; nonce++) {
    header.writeUInt32LE(nonce, 76);
    const id = sha256d(header).reverse();
    if (Buffer.compare(id, target) <= 0) {
      block.nonce = nonce;
      return id.toString('hex');
    }
  }
  throw new Error('no nonce meets the block target');
}
