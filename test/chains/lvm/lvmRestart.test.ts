// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, status:success
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address, Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimulator, type RunningSimulator, type StartSimulatorOptions } from '../../../src/simulator';
import { executeQuoteSteps, getJson, postJson, requestJson, usdcOf, waitForSettledStatus } from '../../support/bridgeClient';
import { cliProcessGroups, waitUntilGone, waitUntilSettled, type CliReady } from '../../support/cliProcess';
import { pooledChains } from '../../support/pooledNodes';

const LVM = 3586256;
const EVM = 8453;

/** One exchange account of the start summary: its index, API key and owner. */
interface ExchangeAccount {
  index: number;
  apiKey: string;
}

function exchangeOf(sim: RunningSimulator): string {
  return sim.chains.find((chain) => chain.id === LVM)!.rpcUrl;
}

function exchangeAccount(sim: RunningSimulator, i: number): ExchangeAccount {
  const listed = sim.chains.find((chain) => chain.id === LVM)!.accounts![i]!;
  return { index: Number(listed.address), apiKey: listed.privateKey };
}

async function accountByIndex(sim: RunningSimulator, index: number) {
  const { status, body } = await getJson(`${exchangeOf(sim)}/api/v1/account?by=index&value=${index}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.accounts[0];
}

async function historyOf(sim: RunningSimulator, index: number) {
  const { status, body } = await getJson(`${exchangeOf(sim)}/api/v1/accountTxs?by=account_index&value=${index}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.txs as Array<{ hash: string; block_height: number; transfer: { memo: string; from_account_index: number } }>;
}

async function transferOnExchange(sim: RunningSimulator, from: ExchangeAccount, action: unknown) {
  return requestJson(`${exchangeOf(sim)}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': from.apiKey }, body: { accountIndex: from.index, action } });
}

/** USDC on Base → an exchange account index: the solver pays by transfer on the exchange. */
async function depositToIndex(sim: RunningSimulator, userIndex: number, recipient: number, amount: string) {
  const user = sim.accounts[userIndex]!;
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
    user: user.address, recipient: String(recipient), originChainId: EVM, destinationChainId: LVM,
    originCurrency: await usdcOf(sim.baseUrl, EVM), destinationCurrency: '0', amount, tradeType: 'EXACT_INPUT',
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
  const requestId = quote.body.steps.at(-1).requestId as string;
  return { requestId, status: await waitForSettledStatus(sim.baseUrl, requestId) };
}

/** An exchange account → an EVM recipient: the quote's transfer action sent to the exchange with the account's key. */
async function withdraw(sim: RunningSimulator, from: ExchangeAccount, recipient: Address, amount: string) {
  const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
    user: String(from.index), recipient, originChainId: LVM, destinationChainId: EVM,
    originCurrency: '0', destinationCurrency: await usdcOf(sim.baseUrl, EVM), amount, tradeType: 'EXACT_INPUT',
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const step = quote.body.steps[0];
  const sent = await transferOnExchange(sim, from, step.items[0].data.action);
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return { requestId: step.requestId as string, depositHash: sent.body.tx_hash as string };
}

describe('the exchange chain across a restart on the same --db', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-lvm-restart-'));
  const options: StartSimulatorOptions = { port: 0, dbPath: join(dir, 'sim.db'), env: {}, log: () => undefined, chains: [{ id: EVM }, { id: LVM }] };
  let sim: RunningSimulator | undefined;

  afterAll(async () => {
    await sim?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps accounts, collateral, transfers, API keys and request records; the next transfer and withdrawal work', async () => {
    sim = await startSimulator(options);
    const receiver = exchangeAccount(sim, 4);
    const withdrawer = exchangeAccount(sim, 6);
    const master = exchangeAccount(sim, 2);
    const solverIndex = Number((await getJson(`${sim.baseUrl}/chains`)).body.chains.find((c: { id: number }) => c.id === LVM).protocol.v2.depository);

    const deposit = await depositToIndex(sim, 5, receiver.index, '25000000');
    expect(deposit.status.status).toBe('success');
    const withdrawal = await withdraw(sim, withdrawer, sim.accounts[7]!.address as Address, '40000000');
    expect((await waitForSettledStatus(sim.baseUrl, withdrawal.requestId)).status).toBe('success');
    // a sub-account and its key, issued after genesis
    const created = await requestJson(`${exchangeOf(sim)}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': master.apiKey } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const sub: ExchangeAccount = { index: created.body.account.index, apiKey: created.body.api_key };
    const toSub = { type: 'transfer', parameters: { toAccountIndex: sub.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 3_000_000, usdcFee: 10_000 } };
    expect((await transferOnExchange(sim, master, toSub)).status).toBe(200);

    const indexes = [0, solverIndex, receiver.index, withdrawer.index, master.index, sub.index];
    const read = async (running: RunningSimulator) => ({
      accounts: await Promise.all(indexes.map((index) => accountByIndex(running, index))),
      histories: await Promise.all(indexes.map((index) => historyOf(running, index))),
      deposit: (await getJson(`${exchangeOf(running)}/api/v1/tx?by=hash&value=${withdrawal.depositHash}`)).body,
      fill: (await getJson(`${exchangeOf(running)}/api/v1/tx?by=hash&value=${deposit.status.txHashes![0]}`)).body,
      withdrawalRecord: running.control.requests.get(withdrawal.requestId),
      withdrawalStatus: (await getJson(`${running.baseUrl}/intents/status/v3?requestId=${withdrawal.requestId}`)).body,
      depositRecord: running.control.requests.get(deposit.requestId),
      depositStatus: (await getJson(`${running.baseUrl}/intents/status/v3?requestId=${deposit.requestId}`)).body,
    });
    const before = await read(sim);
    expect(before.fill).toMatchObject({ transfer: { to_account_index: receiver.index, memo: deposit.requestId } });
    expect(before.deposit).toMatchObject({ transfer: { from_account_index: withdrawer.index, to_account_index: solverIndex, memo: withdrawal.requestId } });
    const lastHeight = Math.max(...before.histories.flat().map((tx) => tx.block_height));
    await sim.stop();

    sim = await startSimulator(options);
    await sim.control.solver.idle();
    const after = await read(sim);
    expect(after).toEqual(before);
    expect(exchangeAccount(sim, 4)).toEqual(receiver);
    // the solver paid each request once, before the restart only
    const solverHistory = await historyOf(sim, solverIndex);
    for (const id of [deposit.requestId, withdrawal.requestId]) {
      expect(solverHistory.filter((tx) => tx.transfer.memo === id && tx.transfer.from_account_index === solverIndex), id).toHaveLength(id === deposit.requestId ? 1 : 0);
    }

    // keys issued before the restart still work (and only for their own account); heights go on
    const back = { type: 'transfer', parameters: { ...toSub.parameters, toAccountIndex: master.index, amount: 1_000_000 } };
    expect((await transferOnExchange(sim, { ...sub, apiKey: master.apiKey }, back)).status).toBe(403);
    const moved = await transferOnExchange(sim, sub, back);
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.block_height).toBe(lastHeight + 1);
    expect((await accountByIndex(sim, sub.index)).collateral).toBe(String(3_000_000 - 1_000_000 - 10_000));

    // and a new withdrawal goes through end to end
    const next = await withdraw(sim, withdrawer, sim.accounts[7]!.address as Address, '10000000');
    expect((await waitForSettledStatus(sim.baseUrl, next.requestId)).status).toBe('success');
    expect(BigInt((await accountByIndex(sim, withdrawer.index)).collateral)).toBe(BigInt(before.accounts[3].collateral) - 10_000_000n - 10_000n);
  });
});

describe('the exchange chain without --db', () => {
  it('starts from genesis again: what the last run did is gone', async () => {
    const options: StartSimulatorOptions = { port: 0, env: {}, log: () => undefined, chains: [...pooledChains([EVM]), { id: LVM }] };
    const first = await startSimulator(options);
    let hash: string;
    let from: ExchangeAccount;
    try {
      from = exchangeAccount(first, 3);
      const to = exchangeAccount(first, 4);
      const sent = await transferOnExchange(first, from, { type: 'transfer', parameters: { toAccountIndex: to.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 5_000_000, usdcFee: 10_000 } });
      expect(sent.status, JSON.stringify(sent.body)).toBe(200);
      hash = sent.body.tx_hash;
      expect((await accountByIndex(first, from.index)).collateral).toBe(String(1_000_000_000_000 - 5_010_000));
    } finally {
      await first.stop();
    }
    const second = await startSimulator(options);
    try {
      expect((await accountByIndex(second, from.index)).collateral).toBe('1000000000000');
      expect((await getJson(`${exchangeOf(second)}/api/v1/tx?by=hash&value=${hash}`)).status).toBe(404);
    } finally {
      await second.stop();
    }
  });
});

/** The exchange as the CLI's `--json` line lists it: its API and each account's index and key. */
function exchangeOfCli(ready: CliReady): { url: string; accounts: ExchangeAccount[] } {
  const chain = ready.chains.find((entry) => entry.id === LVM)! as CliReady['chains'][number] & { accounts: Array<{ address: string; privateKey: string }> };
  return { url: chain.rpcUrl, accounts: chain.accounts.map((account) => ({ index: Number(account.address), apiKey: account.privateKey })) };
}

async function fetchJson(url: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  return requestJson(url, { method: init.method ?? 'GET', ...(init.body === undefined ? {} : { body: init.body }), ...(init.headers ? { headers: init.headers } : {}) });
}

/** A withdrawal quoted on the CLI's API and sent to its exchange with the account's key. */
async function withdrawThroughCli(ready: CliReady, from: ExchangeAccount, recipient: Address) {
  const usdc = ready.chains.find((chain) => chain.id === EVM)!.currencies.find((currency) => currency.symbol === 'USDC')!.address;
  const quote = await fetchJson(`${ready.baseUrl}/quote/v2`, {
    method: 'POST',
    body: { user: String(from.index), recipient, originChainId: LVM, destinationChainId: EVM, originCurrency: '0', destinationCurrency: usdc, amount: '20000000', tradeType: 'EXACT_INPUT' },
  });
  expect(quote.status, JSON.stringify(quote.body)).toBe(200);
  const step = quote.body.steps[0];
  const sent = await fetchJson(`${exchangeOfCli(ready).url}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': from.apiKey }, body: { accountIndex: from.index, action: step.items[0].data.action } });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return { requestId: step.requestId as string, depositHash: sent.body.tx_hash as string, blockHeight: sent.body.block_height as number };
}

async function waitForPending(baseUrl: string, requestId: string): Promise<void> {
  for (let tries = 0; tries < 1500; tries++) {
    if ((await fetchJson(`${baseUrl}/intents/status/v3?requestId=${requestId}`)).body.status === 'pending') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`request ${requestId} never became pending`);
}

describe('the exchange chain after a SIGKILL of the whole process group', () => {
  const dir = mkdtempSync(join(tmpdir(), 'intentsim-lvm-killed-'));
  const groups = cliProcessGroups();
  afterAll(() => {
    groups.killAll();
    rmSync(dir, { recursive: true, force: true });
  });

  const startInOwnGroup = () => groups.start(['--chains', `${EVM},${LVM}`, '--db', join(dir, 'sim.db')]);

  it('loses nothing a client was told: transfers, empty blocks, a settled withdrawal, and a withdrawal paid to the exchange but held unfilled', async () => {
    const first = await startInOwnGroup();
    const exchange = exchangeOfCli(first.ready);
    const [alice, bob] = [exchange.accounts[1]!, exchange.accounts[2]!];
    const recipient = '0x00000000000000000000000000000000000ddd02' as Address;
    const settled = await withdrawThroughCli(first.ready, alice, recipient);
    expect((await waitUntilSettled(first.ready.baseUrl, settled.requestId)).status).toBe('success');
    const settledRecord = (await fetchJson(`${first.ready.baseUrl}/intents/status/v3?requestId=${settled.requestId}`)).body;
    // a plain transfer between accounts, then empty blocks (an admin write)
    const plain = await fetchJson(`${exchange.url}/api/v1/transfer`, {
      method: 'POST',
      headers: { 'x-api-key': bob.apiKey },
      body: { accountIndex: bob.index, action: { type: 'transfer', parameters: { toAccountIndex: alice.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1_234_567, usdcFee: 10_000 } } },
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(200);
    expect((await fetchJson(`${first.ready.baseUrl}/admin/chains/${LVM}/mine`, { method: 'POST', body: { blocks: 5 } })).status).toBe(200);
    // a withdrawal the solver holds (a rule that lives in memory only): paid on the exchange, pending
    const hold = await fetchJson(`${first.ready.baseUrl}/admin/solver/rules`, { method: 'POST', body: { match: { originChainId: LVM }, action: { kind: 'never' } } });
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const pending = await withdrawThroughCli(first.ready, bob, recipient);
    await waitForPending(first.ready.baseUrl, pending.requestId);
    const accountsBefore = await Promise.all([alice, bob].map(async (account) => (await fetchJson(`${exchange.url}/api/v1/account?by=index&value=${account.index}`)).body));
    process.kill(-first.top.pid!, 'SIGKILL');
    await waitUntilGone([first.top.pid!], 10_000);

    const second = await startInOwnGroup();
    const again = exchangeOfCli(second.ready);
    expect(again.accounts).toEqual(exchange.accounts);
    // the held withdrawal is filled once now; the settled one is as it was
    const filled = await waitUntilSettled(second.ready.baseUrl, pending.requestId);
    expect(filled.status).toBe('success');
    expect((await fetchJson(`${second.ready.baseUrl}/intents/status/v3?requestId=${settled.requestId}`)).body).toEqual(settledRecord);
    const accountsAfter = await Promise.all([alice, bob].map(async (account) => (await fetchJson(`${again.url}/api/v1/account?by=index&value=${account.index}`)).body));
    expect(accountsAfter).toEqual(accountsBefore);
    for (const hash of [settled.depositHash, plain.body.tx_hash, pending.depositHash]) {
      expect((await fetchJson(`${again.url}/api/v1/tx?by=hash&value=${hash}`)).status, hash).toBe(200);
    }
    // heights go on after the empty blocks; the next withdrawal works
    const next = await withdrawThroughCli(second.ready, alice, recipient);
    expect(next.blockHeight).toBe(pending.blockHeight + 1);
    expect((await waitUntilSettled(second.ready.baseUrl, next.requestId)).status).toBe('success');
    process.kill(-second.top.pid!, 'SIGTERM');
    await waitUntilGone([second.top.pid!], 20_000);
  }, 120_000);
});
