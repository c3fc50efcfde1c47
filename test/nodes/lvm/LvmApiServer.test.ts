import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/clock/VirtualClock';
import { LvmApiServer } from '../../../src/nodes/lvm/LvmApiServer';
import { LvmLedger } from '../../../src/nodes/lvm/LvmLedger';

const OWNER = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

let server: LvmApiServer;
let url: string;
let ledger: LvmLedger;

beforeAll(async () => {
  ledger = new LvmLedger({ clock: new VirtualClock({ mode: 'manual', startMs: 1_700_000_000_000 }) });
  ledger.createMasterAccount('0x0000000000000000000000000000000000000001');
  const owner = ledger.createMasterAccount(OWNER);
  ledger.fund(owner.index, 50_000_000n);
  ledger.issueApiKey(owner.index, 'owner-key');
  ledger.createMasterAccount('0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC');
  server = new LvmApiServer(ledger, { host: '127.0.0.1', apiKeyFor: (index) => `key-${index}` });
  url = await server.start();
});

afterAll(async () => {
  await server?.stop();
});

async function call(path: string, init: { method?: string; body?: string; key?: string } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method: init.method ?? 'GET',
    headers: { 'content-type': 'application/json', ...(init.key ? { 'x-api-key': init.key } : {}) },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  return { status: response.status, body: await response.json() };
}

function transferBody(parameters: Record<string, unknown>): string {
  const base = { toAccountIndex: 2, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1_000_000, usdcFee: 10_000 };
  return JSON.stringify({ accountIndex: 1, action: { type: 'transfer', parameters: { ...base, ...parameters } } });
}

describe('the exchange HTTP API', () => {
  it('finds accounts by owner case-insensitively and by index', async () => {
    const byOwner = await call(`/api/v1/accountsByL1Address?l1_address=${OWNER.toUpperCase().replace('0X', '0x')}`);
    expect(byOwner).toMatchObject({ status: 200, body: { code: 200, l1_address: OWNER, sub_accounts: [{ index: 1, account_type: 0, collateral: '50000000' }] } });
    const byAddress = await call(`/api/v1/account?by=l1_address&value=${OWNER.toLowerCase()}`);
    expect(byAddress.body).toMatchObject({ total: 1, accounts: [{ index: 1, l1_address: OWNER }] });
    expect(await call('/api/v1/accountsByL1Address?l1_address=0x0000000000000000000000000000000000000bad')).toMatchObject({ status: 404, body: { errorCode: 'ACCOUNT_NOT_FOUND' } });
    expect(await call('/api/v1/accountsByL1Address')).toMatchObject({ status: 400, body: { errorCode: 'INVALID_PARAMETER' } });
    for (const value of ['-1', '1.5', '01', 'abc', '9999999999999999']) {
      expect(await call(`/api/v1/account?by=index&value=${value}`), value).toMatchObject({ status: 400, body: { errorCode: 'INVALID_PARAMETER' } });
    }
  });

  it('refuses malformed transfers with a clear 4xx and moves nothing', async () => {
    const cases: Array<[string, string, string]> = [
      ['not JSON', '{"accountIndex":', 'INVALID_JSON'],
      ['a fractional amount', transferBody({ amount: 1.5 }), 'INVALID_TRANSFER'],
      ['a negative fee', transferBody({ usdcFee: -1 }), 'INVALID_TRANSFER'],
      ['an amount past 2^53', transferBody({ amount: 2 ** 53 }), 'INVALID_TRANSFER'],
      ['a short memo', transferBody({ memo: '0x12' }), 'INVALID_TRANSFER'],
      ['another action type', JSON.stringify({ accountIndex: 1, action: { type: 'withdraw', parameters: {} } }), 'INVALID_TRANSFER'],
      ['an unknown route', transferBody({ toRouteType: 2 }), 'INVALID_ROUTE'],
      ['an unknown recipient', transferBody({ toAccountIndex: 77 }), 'UNKNOWN_ACCOUNT'],
      ['a fee below the exchange fee', transferBody({ usdcFee: 1 }), 'FEE_TOO_LOW'],
    ];
    for (const [what, body, errorCode] of cases) {
      const answer = await call('/api/v1/transfer', { method: 'POST', body, key: 'owner-key' });
      expect(answer, what).toMatchObject({ status: 400, body: { code: 400, errorCode } });
      expect(typeof answer.body.message, what).toBe('string');
    }
    expect(await call('/api/v1/transfer', { method: 'POST', body: transferBody({}), key: 'nope' })).toMatchObject({ status: 401, body: { errorCode: 'INVALID_API_KEY' } });
    expect(await call('/api/v1/transfer', { method: 'POST', body: 'x'.repeat(70_000), key: 'owner-key' })).toMatchObject({ status: 413, body: { errorCode: 'BODY_TOO_LARGE' } });
    expect(ledger.height).toBe(0);
    expect(await call('/api/v1/nothing')).toMatchObject({ status: 404, body: { errorCode: 'NOT_FOUND' } });
  });

  it('executes a transfer and shows it by hash and in both accounts\' history', async () => {
    const memo = `0x${'cd'.repeat(32)}`;
    const sent = await call('/api/v1/transfer', { method: 'POST', body: transferBody({ memo }), key: 'owner-key' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.tx_hash).toMatch(/^[0-9a-f]{64}$/);
    const tx = await call(`/api/v1/tx?by=hash&value=${sent.body.tx_hash}`);
    expect(tx.body).toMatchObject({ hash: sent.body.tx_hash, block_height: 1, executed_at: 1_700_000_000_000, transfer: { from_account_index: 1, to_account_index: 2, amount: '1000000', usdc_fee: '10000', memo } });
    for (const index of [1, 2]) {
      const history = await call(`/api/v1/accountTxs?by=account_index&value=${index}&limit=5`);
      expect(history.body.txs.map((t: { hash: string }) => t.hash)).toEqual([sent.body.tx_hash]);
    }
    expect(await call('/api/v1/accountTxs?by=account_index&value=1&limit=0')).toMatchObject({ status: 400, body: { errorCode: 'INVALID_PARAMETER' } });
    expect(await call('/api/v1/tx?by=hash&value=xyz')).toMatchObject({ status: 400, body: { errorCode: 'INVALID_PARAMETER' } });
    expect((await call('/api/v1/account?by=index&value=2')).body.accounts[0].collateral).toBe('1000000');
    expect((await call('/api/v1/transferFeeInfo')).body).toMatchObject({ transfer_fee_usdc: 10_000 });
  });
});
