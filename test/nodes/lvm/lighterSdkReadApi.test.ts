import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, NotFoundException, BadRequestException, TransactionApi } from 'lighter-ts-sdk';
import { startLvmNode, type StartedLvmNode } from '../../../src/nodes/lvm/startLvmNode';

// Lighter's read API driven by lighter-ts-sdk (a Lighter SDK this project did not write), unshimmed.
// Its getAccountTransactions sends `account_index`; the real API takes `by=account_index&value=`,
// so accountTxs is called through the SDK's own ApiClient with the real API's parameters, and
// transferFeeInfo (no SDK method) the same way.

let node: StartedLvmNode;
let client: ApiClient;
let txApi: TransactionApi;
let first: number;
let second: number;
const sent: string[] = [];

async function transfer(from: { address: string; privateKey: string }, toAccountIndex: number, amount: number): Promise<string> {
  const response = await fetch(`${node.rpcUrl}/api/v1/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': from.privateKey },
    body: JSON.stringify({ accountIndex: Number(from.address), action: { type: 'transfer', parameters: { toAccountIndex, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount, usdcFee: 10_000 } } }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { tx_hash: string }).tx_hash;
}

beforeAll(async () => {
  node = await startLvmNode({ accountCount: 2 });
  client = new ApiClient({ host: node.rpcUrl });
  txApi = new TransactionApi(client);
  const [a, b] = node.fundedAccounts as [(typeof node.fundedAccounts)[0], (typeof node.fundedAccounts)[0]];
  first = Number(a.address);
  second = Number(b.address);
  sent.push(await transfer(a, second, 1_000_000), await transfer(b, first, 250_000), await transfer(a, second, 3_000_000));
});

afterAll(async () => {
  await node?.stop();
});

describe("Lighter's read API through lighter-ts-sdk", () => {
  it('getCurrentHeight answers { code: 200, height }: one block per transfer', async () => {
    expect(await txApi.getCurrentHeight()).toEqual({ code: 200, height: 3 });
  });

  it('getNextNonce (account_index, api_key_index) answers the nonce the next transfer takes; an unknown account is a 404', async () => {
    expect(await txApi.getNextNonce(first, 0)).toEqual({ code: 200, nonce: 3 });
    expect(await txApi.getNextNonce(second, 0)).toEqual({ code: 200, nonce: 2 });
    await expect(txApi.getNextNonce(999_999, 0)).rejects.toBeInstanceOf(NotFoundException);
  });

  it('getTransaction by hash and by sequence_index answers the same transfer with the real field names', async () => {
    const byHash = await txApi.getTransaction({ by: 'hash', value: sent[1]! });
    expect(byHash).toMatchObject({
      code: 200, hash: sent[1], type: 12, status: 2, account_index: second, nonce: 1, block_height: 2, sequence_index: 2,
      l1_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), transaction_index: 0,
    });
    expect(JSON.parse(byHash.info!)).toMatchObject({ FromAccountIndex: second, ToAccountIndex: first, AssetIndex: 3, Amount: 250_000, USDCFee: 10_000, Nonce: 1 });
    for (const field of ['queued_at', 'executed_at', 'committed_at', 'verified_at'] as const) expect(typeof byHash[field], field).toBe('number');
    expect(await txApi.getTransaction({ by: 'sequence_index', value: '2' })).toEqual(byHash);
    await expect(txApi.getTransaction({ by: 'sequence_index', value: '4' })).rejects.toBeInstanceOf(NotFoundException);
    await expect(txApi.getTransaction({ by: 'l1_tx_hash', value: sent[0]! })).rejects.toBeInstanceOf(BadRequestException);
  });

  it('getTransactions pages every transaction in execution order from sequence index `index`', async () => {
    const all = (await txApi.getTransactions({ limit: 100 })) as unknown as { code: number; txs: Array<{ hash: string; sequence_index: number }> };
    expect(all.txs.map((tx) => tx.hash)).toEqual(sent);
    const page = (await txApi.getTransactions({ index: 2, limit: 1 })) as unknown as { txs: Array<{ sequence_index: number }> };
    expect(page.txs.map((tx) => tx.sequence_index)).toEqual([2]);
    await expect(txApi.getTransactions({ limit: 0 })).rejects.toBeInstanceOf(BadRequestException);
  });

  it('getBlock by height, and by its commitment, holds the block’s transfer; getBlocks pages heights both ways', async () => {
    const byHeight = (await txApi.getBlock({ by: 'height', value: '3' })) as unknown as { total: number; blocks: Array<{ height: number; commitment: string; txs: Array<{ hash: string }>; size: number }> };
    expect(byHeight).toMatchObject({ code: 200, total: 1, blocks: [{ height: 3, size: 1, txs: [{ hash: sent[2] }] }] });
    const commitment = byHeight.blocks[0]!.commitment;
    expect(commitment).toMatch(/^[0-9a-f]{64}$/);
    // the SDK's BlockParams type names `hash`; the real API's parameter is `commitment`
    expect(await txApi.getBlock({ by: 'commitment' as 'hash', value: commitment })).toEqual(byHeight);
    await expect(txApi.getBlock({ by: 'height', value: '4' })).rejects.toBeInstanceOf(NotFoundException);
    const ascending = (await txApi.getBlocks({ limit: 2 })) as unknown as { blocks: Array<{ height: number }> };
    expect(ascending.blocks.map((block) => block.height)).toEqual([1, 2]);
    const descending = (await txApi.getBlocks({ limit: 5, sort: 'desc' })) as unknown as { blocks: Array<{ height: number }> };
    expect(descending.blocks.map((block) => block.height)).toEqual([3, 2, 1]);
  });

  it('accountTxs (by=account_index&value=, as the real API takes it) lists an account’s transfers newest first, below sequence index `index`', async () => {
    const { data } = await client.get('/api/v1/accountTxs', { by: 'account_index', value: first, limit: 10 });
    expect(data.txs.map((tx: { hash: string }) => tx.hash)).toEqual([...sent].reverse());
    const older = await client.get('/api/v1/accountTxs', { by: 'account_index', value: first, limit: 10, index: 3 });
    expect(older.data.txs.map((tx: { hash: string }) => tx.hash)).toEqual([sent[1], sent[0]]);
    // what the SDK's getAccountTransactions sends (account_index) is not the real API's form
    await expect(txApi.getAccountTransactions(first, { limit: 10 })).rejects.toBeInstanceOf(BadRequestException);
  });

  it('transferFeeInfo answers the transfer fee in USDC’s smallest unit', async () => {
    const { data } = await client.get('/api/v1/transferFeeInfo', { account_index: first, to_account_index: second });
    expect(data).toEqual({ code: 200, transfer_fee_usdc: 10_000 });
    await expect(client.get('/api/v1/transferFeeInfo', { account_index: 999_999 })).rejects.toBeInstanceOf(NotFoundException);
  });
});
