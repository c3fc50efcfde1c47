import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountApi, ApiClient, TransactionApi } from 'lighter-ts-sdk';
import { startLvmNode, type StartedLvmNode } from '../../../src/nodes/lvm/startLvmNode';
import { LedgerJournalStore } from '../../../src/store/LedgerJournalStore';
import { openDatabase } from '../../../src/store/openDatabase';

// An exchange forking another (issue 35, part 4): the upstream is a second embedded exchange with a
// sub-account and a master account (of an owner the fork never saw) funded only there; the fork is
// read with lighter-ts-sdk (a Lighter SDK this project did not write) and plain fetch.
const NEW_OWNER = getAddress('0x00000000000000000000000000000000000beef1');

let upstream: StartedLvmNode;
let fork: StartedLvmNode;
const journal = new LedgerJournalStore(openDatabase(':memory:'));
const running: StartedLvmNode[] = [];
let sub: { index: number; apiKey: string };
let newMaster: number;

type AccountsAnswer = { accounts: Array<{ index: number; l1_address: string; account_type: number; collateral: string; nonce: number }> };

async function transfer(apiUrl: string, apiKey: string, fromAccountIndex: number, toAccountIndex: number, amount: number): Promise<Response> {
  return fetch(`${apiUrl}/api/v1/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ accountIndex: fromAccountIndex, action: { type: 'transfer', parameters: { toAccountIndex, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount, usdcFee: 10_000 } } }),
  });
}

async function accountsOf(apiUrl: string, by: 'index' | 'l1_address', value: string): Promise<AccountsAnswer['accounts']> {
  const api = new AccountApi(new ApiClient({ host: apiUrl }));
  return ((await api.getAccount({ by, value })) as unknown as AccountsAnswer).accounts;
}

beforeAll(async () => {
  upstream = await startLvmNode({ accountCount: 2 });
  running.push(upstream);
  const [alice] = upstream.fundedAccounts;
  // upstream only: a sub-account of alice's, funded by a transfer, and a master account of an owner the fork never saw
  const created = await fetch(`${upstream.rpcUrl}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': alice!.privateKey } });
  const { account, api_key } = (await created.json()) as { account: { index: number }; api_key: string };
  sub = { index: account.index, apiKey: api_key };
  expect((await transfer(upstream.rpcUrl, alice!.privateKey, Number(alice!.address), sub.index, 5_000_000)).status).toBe(200);
  newMaster = upstream.ledger.createMasterAccount(NEW_OWNER).index;
  expect((await transfer(upstream.rpcUrl, alice!.privateKey, Number(alice!.address), newMaster, 7_000_000)).status).toBe(200);

  fork = await startLvmNode({ accountCount: 2, fork: { apiUrl: upstream.rpcUrl }, journal });
  running.push(fork);
});

afterAll(async () => {
  for (const node of running) await node.stop();
});

describe('an exchange forking an upstream exchange API', () => {
  it('shows accounts that exist only upstream, by index and by an owner unknown here, with their balances and nonce', async () => {
    expect(fork.ledger.account(sub.index)).toBeUndefined();
    expect(await accountsOf(fork.rpcUrl, 'index', String(sub.index))).toEqual([expect.objectContaining({ index: sub.index, account_type: 1, collateral: '5000000', nonce: 0 })]);
    expect(await accountsOf(fork.rpcUrl, 'l1_address', NEW_OWNER)).toEqual([expect.objectContaining({ index: newMaster, account_type: 0, collateral: '7000000', l1_address: NEW_OWNER })]);
    expect(await new TransactionApi(new ApiClient({ host: fork.rpcUrl })).getNextNonce(sub.index, 0)).toEqual({ code: 200, nonce: 1 });
    // what the upstream does not have is not here either
    const unknown = await fetch(`${fork.rpcUrl}/api/v1/account?by=index&value=424242`);
    expect(unknown.status).toBe(404);
    // a local account stays the local one: the fork's alice was not read
    expect(fork.ledger.isFromUpstream(Number(fork.fundedAccounts[0]!.address))).toBe(false);
  });

  it("transfers from a forked-in account with its API key locally; local changes win; the upstream is unchanged", async () => {
    const upstreamHeight = upstream.ledger.height;
    const bob = Number(fork.fundedAccounts[1]!.address);
    const sent = await transfer(fork.rpcUrl, sub.apiKey, sub.index, bob, 2_000_000);
    expect(sent.status).toBe(200);
    expect(await accountsOf(fork.rpcUrl, 'index', String(sub.index))).toEqual([expect.objectContaining({ collateral: String(5_000_000 - 2_000_000 - 10_000), nonce: 1 })]);
    // more than it holds here: refused locally, whatever the upstream holds
    const refused = await transfer(fork.rpcUrl, sub.apiKey, sub.index, bob, 4_000_000);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ errorCode: 'INSUFFICIENT_BALANCE' });
    // a new local master account does not take an index read from the upstream
    expect(fork.ledger.createMasterAccount(getAddress('0x00000000000000000000000000000000000beef2')).index).not.toBe(newMaster);

    expect(upstream.ledger.height).toBe(upstreamHeight);
    expect(await accountsOf(upstream.rpcUrl, 'index', String(sub.index))).toEqual([expect.objectContaining({ collateral: '5000000', nonce: 0 })]);
  });

  it('comes back from its journal with the upstream stopped; an account never read fails at once, naming the upstream', async () => {
    await fork.stop();
    running.splice(running.indexOf(fork), 1);
    await upstream.stop();
    running.splice(running.indexOf(upstream), 1);
    const restarted = await startLvmNode({ accountCount: 2, fork: { apiUrl: upstream.rpcUrl }, journal });
    running.push(restarted);
    expect(await accountsOf(restarted.rpcUrl, 'index', String(sub.index))).toEqual([expect.objectContaining({ collateral: String(5_000_000 - 2_000_000 - 10_000), nonce: 1 })]);
    expect(await accountsOf(restarted.rpcUrl, 'l1_address', NEW_OWNER)).toEqual([expect.objectContaining({ index: newMaster, collateral: '7000000' })]);

    const started = performance.now();
    const never = await fetch(`${restarted.rpcUrl}/api/v1/account?by=index&value=424242`);
    expect(never.status).toBe(502);
    const body = (await never.json()) as { errorCode: string; message: string };
    expect(body.errorCode).toBe('UPSTREAM_UNAVAILABLE');
    expect(body.message).toContain(`the fork's upstream exchange API ${upstream.rpcUrl} could not be read (GET /api/v1/account?by=index&value=424242)`);
    expect(body.message).toMatch(/ECONNREFUSED/);
    // a fork's first start (no journal) asks the upstream first: refused at once
    await expect(startLvmNode({ accountCount: 2, fork: { apiUrl: upstream.rpcUrl } })).rejects.toThrow(/could not be read \(GET \/api\/v1\/currentHeight\): fetch failed \(ECONNREFUSED\)/);
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
