import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Client from 'bitcoin-core';
import { startNodeWithCoreWallet } from '../../support/bvmNodeFixtures';
import type { StartedBvmNode } from '../../../src/nodes/bvm/startBvmNode';

// the node's faults as a Bitcoin Core client sees them (the bitcoin-core npm client, unshimmed):
// full replace-by-fee, invalidateblock over several blocks, and a reorg by a competing branch
let node: StartedBvmNode;
let rpc: Client;
let wallet: Client;

interface RawTransaction {
  txid: string;
  vin: Array<{ txid: string; vout: number }>;
  vout: Array<{ value: number; n: number; scriptPubKey: { address?: string } }>;
}

beforeAll(async () => {
  ({ node, rpc, wallet } = await startNodeWithCoreWallet());
});

afterAll(async () => {
  await node?.stop();
});

/** A transaction spending the same inputs as `txid` into one output to `to`, paying `feeSats`, signed by the wallet. */
async function conflictingSpend(txid: string, to: string, feeSats: number): Promise<string> {
  const original = (await rpc.command('getrawtransaction', txid, true)) as RawTransaction;
  let inSats = 0;
  for (const input of original.vin) {
    const previous = (await rpc.command('getrawtransaction', input.txid, true)) as RawTransaction;
    inSats += Math.round(previous.vout[input.vout]!.value * 1e8);
  }
  const raw = (await rpc.command('createrawtransaction', original.vin.map((input) => ({ txid: input.txid, vout: input.vout })), [{ [to]: (inSats - feeSats) / 1e8 }])) as string;
  return ((await wallet.command('signrawtransactionwithwallet', raw)) as { hex: string }).hex;
}

describe('Bitcoin Core faults on the node alone', () => {
  it('sendrawtransaction replaces a mempool transaction by a conflicting one paying more (full RBF, as Core 28), and refuses one paying less with -26 insufficient fee', async () => {
    const payee = node.fundedAccounts[0]!.address;
    const original = (await wallet.command('sendtoaddress', payee, 0.5)) as string;
    const fee = Math.round(((await rpc.command('getmempoolentry', original)) as { fees: { base: number } }).fees.base * 1e8);
    const back = (await wallet.command('getnewaddress')) as string;
    await expect(rpc.command('sendrawtransaction', await conflictingSpend(original, back, fee - 1))).rejects.toMatchObject({ code: -26, message: expect.stringMatching(/^insufficient fee, rejecting replacement [0-9a-f]{64}, less fees than conflicting txs; /) });
    const replacement = await conflictingSpend(original, back, fee + 1000);
    const replacementId = (await rpc.command('sendrawtransaction', replacement)) as string;
    expect(await rpc.command('getrawmempool')).toEqual([replacementId]);
    await expect(rpc.command('getmempoolentry', original)).rejects.toMatchObject({ code: -5 });
    await expect(rpc.command('getrawtransaction', original)).rejects.toMatchObject({ code: -5 });
    await rpc.command('generatetoaddress', 1, payee);
    expect(((await rpc.command('getrawtransaction', replacementId, true)) as { confirmations: number }).confirmations).toBe(1);
  });

  it('invalidateblock of a block 2 deep returns both blocks\' transactions to the mempool in order; reconsiderblock connects them again', async () => {
    const payee = node.fundedAccounts[1]!.address;
    const first = (await wallet.command('sendtoaddress', payee, 0.1)) as string;
    const [lower] = (await rpc.command('generatetoaddress', 1, payee)) as string[];
    const second = (await wallet.command('sendtoaddress', payee, 0.2)) as string;
    const [upper] = (await rpc.command('generatetoaddress', 1, payee)) as string[];
    const height = (await rpc.command('getblockcount')) as number;
    expect(await rpc.command('invalidateblock', lower)).toBeNull();
    expect(await rpc.command('getblockcount')).toBe(height - 2);
    expect(await rpc.command('getrawmempool')).toEqual([first, second]);
    expect(await rpc.command('reconsiderblock', lower)).toBeNull();
    expect(await rpc.command('getbestblockhash')).toBe(upper);
    expect(await rpc.command('getrawmempool')).toEqual([]);
  });

  it('a reorg by a competing branch: other blocks at the same height, the dropped transactions back in the mempool, one whose input the branch spends gone', async () => {
    const payee = node.fundedAccounts[1]!.address;
    const kept = (await wallet.command('sendtoaddress', payee, 0.1)) as string;
    const doubleSpent = (await wallet.command('sendtoaddress', payee, 0.3)) as string;
    const [mined] = (await rpc.command('generatetoaddress', 1, payee)) as string[];
    const conflict = await conflictingSpend(doubleSpent, (await wallet.command('getnewaddress')) as string, 50_000);
    const [replacing] = node.ledger.reorg(1, node.keys.miner.script, [conflict]);
    expect(await rpc.command('getbestblockhash')).toBe(replacing!.hash);
    await expect(rpc.command('getblock', mined)).rejects.toMatchObject({ code: -5, message: 'Block not found' });
    const conflictId = ((await rpc.command('decoderawtransaction', conflict)) as { txid: string }).txid;
    expect(((await rpc.command('getblock', replacing!.hash, 1)) as { tx: string[] }).tx.slice(1)).toEqual([conflictId]);
    expect(await rpc.command('getrawmempool')).toEqual([kept]);
    await expect(rpc.command('getrawtransaction', doubleSpent)).rejects.toMatchObject({ code: -5 });
  });
});
