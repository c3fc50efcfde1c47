import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, LAMPORTS_PER_SOL, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { Address } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { startSimulator } from '../../src/simulator';
import { publicClientFor } from '../support/bridgeClient';
import { pooledChains } from '../support/pooledNodes';
import { solanaConnection } from '../support/solanaConnections';
import { SVM_CHAIN_ID as SVM } from '../support/svmClient';
import { sendFrom } from '../support/swapClient';

// After sim.reset() the chains go on as after the start: the same transactions get the same
// hashes and signatures (an EVM chain's next base fee, the SVM ledger's next blockhashes).

const EVM = 1;
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: SVM }] });
});

afterAll(async () => {
  await sim?.stop();
});

const payer = Keypair.fromSeed(new Uint8Array(32).fill(7));
const recipient = Keypair.fromSeed(new Uint8Array(32).fill(9)).publicKey;

/** The same few transactions on each chain: what identifies each (hashes, signatures, blockhashes, fees). */
async function sameTransactions() {
  // a Connection of its own: web3.js keeps a recent blockhash a while
  const connection = solanaConnection(sim.chains.find((chain) => chain.id === SVM)!.rpcUrl);
  const airdrop = await connection.requestAirdrop(payer.publicKey, LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: airdrop, ...(await connection.getLatestBlockhash()) });
  const { blockhash } = await connection.getLatestBlockhash();
  const transfer = new VersionedTransaction(new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 1_000_000 })] }).compileToV0Message());
  transfer.sign([payer]);
  const sent = await connection.sendRawTransaction(transfer.serialize());
  await connection.confirmTransaction({ signature: sent, ...(await connection.getLatestBlockhash()) });

  const hash = await sendFrom(sim, EVM, sim.accounts[1]!.privateKey, { to: sim.accounts[2]!.address as Address, data: '0x', value: 1000n });
  const receipt = await publicClientFor(sim, EVM).getTransactionReceipt({ hash });
  return { svm: { airdrop, blockhash, sent, balance: await connection.getBalance(recipient) }, evm: { hash, effectiveGasPrice: receipt.effectiveGasPrice, blockNumber: receipt.blockNumber } };
}

describe('a world reset', () => {
  it('gives the chains as the start left them: the same transactions get the same hashes and signatures', async () => {
    const first = await sameTransactions();
    await sim.reset();
    expect(await sameTransactions()).toEqual(first);
    await sim.reset();
    expect(await sameTransactions()).toEqual(first);
  });
});
