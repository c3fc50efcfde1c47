import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { privateKeyToAddress } from 'viem/accounts';
import { startLvmNode, type StartedLvmNode } from '../../../src/nodes/lvm/startLvmNode';

// Anvil's default mnemonic: test account 0 is Foundry's well-known first account
const FIRST_TEST_ACCOUNT = privateKeyToAddress('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');

let node: StartedLvmNode;

beforeAll(async () => {
  node = await startLvmNode({ accountCount: 3 });
});

afterAll(async () => {
  await node?.stop();
});

async function call(path: string, init: { method?: string; body?: unknown; key?: string } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${node.rpcUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.key ? { 'x-api-key': init.key } : {}) },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: response.status, body: await response.json() };
}

describe('startLvmNode: the exchange alone, over its own HTTP API', () => {
  it('answers on its URL with the genesis `intentsim start` writes: one funded account per test account, owned by its EVM address', async () => {
    expect(node.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(node.chainId).toBe(3586256);
    expect(node.fundedAccounts).toHaveLength(3);
    const [first] = node.fundedAccounts;
    expect(first).toMatchObject({ address: '2', owner: FIRST_TEST_ACCOUNT, balance: '1000000 USDC' });
    const byOwner = await call(`/api/v1/accountsByL1Address?l1_address=${FIRST_TEST_ACCOUNT}`);
    expect(byOwner).toMatchObject({ status: 200, body: { l1_address: FIRST_TEST_ACCOUNT, sub_accounts: [{ index: 2, collateral: '1000000000000' }] } });
  });

  it('takes a transfer signed with a funded account’s API key and shows it by hash', async () => {
    const [from, to] = node.fundedAccounts as [typeof node.fundedAccounts[0], typeof node.fundedAccounts[0]];
    const transfer = await call('/api/v1/transfer', {
      method: 'POST',
      key: from.privateKey,
      body: { accountIndex: Number(from.address), action: { type: 'transfer', parameters: { toAccountIndex: Number(to.address), assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 2_500_000, usdcFee: 10_000 } } },
    });
    expect(transfer.status).toBe(200);
    const tx = await call(`/api/v1/tx?by=hash&value=${transfer.body.tx_hash}`);
    expect(tx.body).toMatchObject({ hash: transfer.body.tx_hash, transfer: { from_account_index: 2, to_account_index: 3, amount: '2500000' } });
    const receiver = await call(`/api/v1/account?by=index&value=${to.address}`);
    expect(receiver.body.accounts[0].collateral).toBe('1000002500000');
    expect(await call('/api/v1/transfer', { method: 'POST', key: 'not-a-key', body: { accountIndex: 2, action: { type: 'transfer', parameters: { toAccountIndex: 3, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1, usdcFee: 10_000 } } } })).toMatchObject({ status: 401 });
  });

  it('derives the same API keys for the same mnemonic, and closes its port on stop()', async () => {
    const again = await startLvmNode({ accountCount: 3 });
    expect(again.rpcUrl).not.toBe(node.rpcUrl);
    expect(again.fundedAccounts.map((account) => account.privateKey)).toEqual(node.fundedAccounts.map((account) => account.privateKey));
    await again.stop();
    await expect(fetch(`${again.rpcUrl}/health`)).rejects.toThrow();
  });
});
