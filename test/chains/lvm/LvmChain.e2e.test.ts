import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, type Address, type Hex } from 'viem';
import type { RunningSimulator } from '../../../src/simulator';
import { startSimulator } from '../../../src/simulator';
import { formatStartSummary, startSummaryJson } from '../../../src/formatStartSummary';
import { executeQuoteSteps, getJson, postJson, publicClientFor, requestJson, usdcOf, waitForSettledStatus } from '../../support/bridgeClient';
import { expectPublishedType } from '../../support/publishedApiTypes';
import { pooledChains } from '../../support/pooledNodes';

// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3, endpoint:GET /requests/v3, endpoint:GET /chains, status:success, status:refund, errorCode:INVALID_ADDRESS

const LVM = 3586256;
const EVM = 8453;

let sim: RunningSimulator;
let exchange: string;

interface ExchangeAccount {
  index: number;
  l1_address: string;
  collateral: string;
}

beforeAll(async () => {
  sim = await startSimulator({
    port: 0,
    env: {},
    log: () => undefined,
    chains: [...pooledChains([EVM]), { id: LVM }],
  });
  exchange = sim.chains.find((chain) => chain.id === LVM)!.rpcUrl;
});

afterAll(async () => {
  await sim?.stop();
});

async function accountByIndex(index: number): Promise<ExchangeAccount> {
  const { status, body } = await getJson(`${exchange}/api/v1/account?by=index&value=${index}`);
  expect(status, JSON.stringify(body)).toBe(200);
  return body.accounts[0];
}

/** The exchange account test account `i` owns, found as a client finds it: by its EVM address. */
async function exchangeAccountOf(i: number): Promise<{ index: number; apiKey: string; owner: string }> {
  const owner = sim.accounts[i]!.address;
  const { status, body } = await getJson(`${exchange}/api/v1/accountsByL1Address?l1_address=${owner.toLowerCase()}`);
  expect(status, JSON.stringify(body)).toBe(200);
  const index = body.sub_accounts[0].index as number;
  const listed = sim.chains.find((chain) => chain.id === LVM)!.accounts!.find((account) => account.address === String(index))!;
  expect(listed.owner).toBe(owner);
  return { index, apiKey: listed.privateKey, owner };
}

describe('the perpetuals-exchange chain through the simulator', () => {
  it('lists the exchange in /chains (vmType lvm, USDC at 0, explorer path /transaction/{TX_HASH}) and an account per test account', async () => {
    const { body } = await getJson(`${sim.baseUrl}/chains`);
    const chain = body.chains.find((entry: { id: number }) => entry.id === LVM);
    expect(chain).toMatchObject({ vmType: 'lvm', currency: { address: '0', decimals: 6, symbol: 'USDC' }, explorerPaths: { transaction: '/transaction/{TX_HASH}' }, httpRpcUrl: exchange });
    const accounts = sim.chains.find((entry) => entry.id === LVM)!.accounts!;
    expect(accounts).toHaveLength(sim.accounts.length);
    expect(accounts.map((account) => account.owner)).toEqual(sim.accounts.map((account) => account.address));
    const first = await accountByIndex(Number(accounts[0]!.address));
    expect(first).toMatchObject({ l1_address: sim.accounts[0]!.address, collateral: '1000000000000' });
    // the start summary and --json: index, API key and owner of each account
    const summary = formatStartSummary(sim);
    expect(summary).toContain('Lighter accounts (chain 3586256: 1,000,000 USDC collateral each; account index, API key, owning EVM account)');
    // indexes padded to the widest one (index 11 for account 9), so the keys line up
    expect(summary).toContain(`  (0) ${accounts[0]!.address}   ${accounts[0]!.privateKey}  ${sim.accounts[0]!.address}`);
    expect(summary).toContain(`  (9) ${accounts[9]!.address}  ${accounts[9]!.privateKey}  ${sim.accounts[9]!.address}`);
    const json = JSON.parse(JSON.stringify(startSummaryJson(sim)));
    const listed = json.chains.find((chain: { id: number }) => chain.id === LVM);
    expect(listed).toMatchObject({ vmType: 'lvm', rpcUrl: exchange, depository: '1' });
    expect(listed.accounts[0]).toEqual({ address: accounts[0]!.address, privateKey: expect.stringMatching(/^[0-9a-f]{64}$/), owner: sim.accounts[0]!.address });
    expect(json.accounts).toEqual(sim.accounts);
  });

  it('the exchange API answers clear 4xx JSON: unknown account, bad query, missing or wrong key', async () => {
    expect(await getJson(`${exchange}/api/v1/account?by=index&value=123456`)).toMatchObject({ status: 404, body: { errorCode: 'ACCOUNT_NOT_FOUND' } });
    expect(await getJson(`${exchange}/api/v1/account?by=name&value=1`)).toMatchObject({ status: 400, body: { errorCode: 'INVALID_PARAMETER' } });
    expect(await getJson(`${exchange}/api/v1/tx?by=hash&value=${'0'.repeat(64)}`)).toMatchObject({ status: 404, body: { errorCode: 'TRANSACTION_NOT_FOUND' } });
    const alice = await exchangeAccountOf(1);
    const bob = await exchangeAccountOf(2);
    const action = { type: 'transfer', parameters: { toAccountIndex: bob.index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1_000_000, usdcFee: 10_000 } };
    expect(await postJson(`${exchange}/api/v1/transfer`, { accountIndex: alice.index, action })).toMatchObject({ status: 401, body: { errorCode: 'MISSING_API_KEY' } });
    const withBobsKey = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': bob.apiKey }, body: { accountIndex: alice.index, action } });
    expect(withBobsKey).toMatchObject({ status: 403, body: { errorCode: 'API_KEY_NOT_FOR_ACCOUNT' } });
    const asString = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': alice.apiKey }, body: { accountIndex: alice.index, action: { ...action, parameters: { ...action.parameters, amount: '1000000' } } } });
    expect(asString).toMatchObject({ status: 400, body: { errorCode: 'INVALID_TRANSFER' } });
    const overdraft = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': alice.apiKey }, body: { accountIndex: alice.index, action: { ...action, parameters: { ...action.parameters, amount: 2_000_000_000_000 } } } });
    expect(overdraft).toMatchObject({ status: 400, body: { errorCode: 'INSUFFICIENT_BALANCE' } });
    expect((await accountByIndex(bob.index)).collateral).toBe('1000000000000');
  });

  it('a master account opens a sub-account with its key (indexes count down from 2^48 − 2) and moves collateral into it', async () => {
    const master = await exchangeAccountOf(2);
    const created = await requestJson(`${exchange}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': master.apiKey } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.account).toMatchObject({ index: 281474976710654, account_type: 1, master_account_index: master.index, l1_address: master.owner, collateral: '0' });
    const sub = created.body.account.index as number;
    const action = { type: 'transfer', parameters: { toAccountIndex: sub, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 3_000_000, usdcFee: 10_000 } };
    const moved = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': master.apiKey }, body: { accountIndex: master.index, action } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await accountByIndex(sub)).collateral).toBe('3000000');
    // the sub-account's own key moves its collateral; the master's key does not
    const back = { type: 'transfer', parameters: { ...action.parameters, toAccountIndex: master.index, amount: 1_000_000 } };
    expect(await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': master.apiKey }, body: { accountIndex: sub, action: back } })).toMatchObject({ status: 403 });
    expect(await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': created.body.api_key }, body: { accountIndex: sub, action: back } })).toMatchObject({ status: 200 });
    const { body: owned } = await getJson(`${exchange}/api/v1/accountsByL1Address?l1_address=${master.owner}`);
    expect(owned.sub_accounts.map((account: { index: number }) => account.index)).toEqual([master.index, sub]);
    expect(await requestJson(`${exchange}/api/v1/createSubAccount`, { method: 'POST', headers: { 'x-api-key': created.body.api_key } })).toMatchObject({ status: 400, body: { errorCode: 'NOT_A_MASTER_ACCOUNT' } });
  });

  it('refuses a deposit to an account index the exchange does not have (INVALID_ADDRESS), and an EVM address as recipient', async () => {
    const user = sim.accounts[3]!.address;
    const base = { user, originChainId: EVM, destinationChainId: LVM, originCurrency: await usdcOf(sim.baseUrl, EVM), destinationCurrency: '0', amount: '5000000', tradeType: 'EXACT_INPUT' };
    for (const recipient of ['987654', user, '-1', '01']) {
      const quote = await postJson(`${sim.baseUrl}/quote/v2`, { ...base, recipient });
      expect(quote, recipient).toMatchObject({ status: 400, body: { errorCode: 'INVALID_ADDRESS' } });
    }
  });

  it('USDC on Base → an exchange account: the solver transfers collateral to the index, the account sees it rise', async () => {
    const recipient = await exchangeAccountOf(4);
    const before = BigInt((await accountByIndex(recipient.index)).collateral);
    const user = sim.accounts[5]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address,
      recipient: String(recipient.index),
      originChainId: EVM,
      destinationChainId: LVM,
      originCurrency: await usdcOf(sim.baseUrl, EVM),
      destinationCurrency: '0',
      amount: '25000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.details).toMatchObject({ operation: 'bridge', recipient: String(recipient.index), currencyOut: { currency: { chainId: LVM, address: '0', decimals: 6 } } });
    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    const requestId = quote.body.steps.at(-1).requestId as string;
    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    const after = BigInt((await accountByIndex(recipient.index)).collateral);
    expect(after - before).toBe(BigInt(quote.body.details.currencyOut.amount));
    // the fill is a transfer on the exchange, read back by its hash
    const fill = status.txHashes![0]!;
    const { status: found, body: tx } = await getJson(`${exchange}/api/v1/tx?by=hash&value=${fill}`);
    expect(found).toBe(200);
    expect(tx.transfer).toMatchObject({ to_account_index: recipient.index, amount: quote.body.details.currencyOut.amount, memo: requestId });
  });

  it('a withdrawal: the quote\'s action submitted to the exchange with the account key pays the EVM recipient; inTxs carry the bare hash', async () => {
    const account = await exchangeAccountOf(6);
    const usdc = await usdcOf(sim.baseUrl, EVM);
    const recipient = sim.accounts[7]!.address as Address;
    const evmBefore = await publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    const collateralBefore = BigInt((await accountByIndex(account.index)).collateral);

    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: String(account.index),
      recipient,
      originChainId: LVM,
      destinationChainId: EVM,
      originCurrency: '0',
      destinationCurrency: usdc,
      amount: '40000000',
      tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    expect(step).toMatchObject({ id: 'deposit', kind: 'transaction' });
    const item = step.items[0];
    expect(item.check).toEqual({ endpoint: `/intents/status?requestId=${step.requestId}`, method: 'GET' });
    const { action } = item.data;
    expect(action.type).toBe('transfer');
    expect(Object.keys(action.parameters).sort()).toEqual(['amount', 'assetIndex', 'fromRouteType', 'memo', 'toAccountIndex', 'toRouteType', 'usdcFee']);
    for (const name of ['toAccountIndex', 'assetIndex', 'fromRouteType', 'toRouteType', 'amount', 'usdcFee']) expect(Number.isInteger(action.parameters[name]), name).toBe(true);
    expect(action.parameters).toMatchObject({ amount: 40_000_000, memo: step.requestId, toAccountIndex: Number((await getJson(`${sim.baseUrl}/chains`)).body.chains.find((c: { id: number }) => c.id === LVM).protocol.v2.depository) });

    const submitted = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': account.apiKey }, body: { accountIndex: account.index, action } });
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
    const txHash = submitted.body.tx_hash as string;
    expect(txHash).toMatch(/^[0-9a-f]{64}$/);
    // the hint a wallet adapter posts after sending: the bare hash is looked up, the deposit indexed once
    expect(await postJson(`${sim.baseUrl}/transactions/index`, { txHash, chainId: String(LVM) })).toMatchObject({ status: 200 });

    const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
    expect(status.status).toBe('success');
    const evmAfter = await publicClientFor(sim, EVM).readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] });
    expect(evmAfter - evmBefore).toBe(BigInt(quote.body.details.currencyOut.amount));
    expect(BigInt((await accountByIndex(account.index)).collateral)).toBe(collateralBefore - 40_000_000n - BigInt(action.parameters.usdcFee));

    // SPEC §4.3: this origin's inTxs[].txHash is the bare 64-hex hash; outTxs keep the EVM form
    const listed = await requestJson(`${sim.baseUrl}/requests/v3?id=${step.requestId}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });
    expect(listed.status).toBe(200);
    expectPublishedType('RequestsV3', listed.body, 'the exchange-origin record');
    const record = listed.body.requests[0];
    expect(record.data.inTxs.map((tx: { txHash: string }) => tx.txHash)).toEqual([txHash]);
    expect(record.data.inTxs[0]).toMatchObject({ chainId: LVM, txHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(record.data.outTxs[0].txHash).toMatch(/^0x[0-9a-f]{64}$/);
    const byHash = await requestJson(`${sim.baseUrl}/requests/v3?depositTxHash=${txHash}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });
    expect(byHash.body.requests.map((r: { id: string }) => r.id)).toEqual([step.requestId]);
    const byTerm = await requestJson(`${sim.baseUrl}/requests/v3?term=${txHash.toUpperCase()}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } });
    expect(byTerm.body.requests.map((r: { id: string }) => r.id)).toEqual([step.requestId]);
  });

  it('more than the solver holds on the exchange is SOLVER_CAPACITY_EXCEEDED; more than a JSON integer carries is UNSUPPORTED_ON_CHAIN', async () => {
    const recipient = await exchangeAccountOf(8);
    const tooMuch = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: sim.accounts[8]!.address, recipient: String(recipient.index), originChainId: EVM, destinationChainId: LVM,
      originCurrency: await usdcOf(sim.baseUrl, EVM), destinationCurrency: '0', amount: String(200_000_000n * 10n ** 6n), tradeType: 'EXACT_INPUT',
    });
    expect(tooMuch).toMatchObject({ status: 400, body: { errorCode: 'SOLVER_CAPACITY_EXCEEDED' } });
    const unsafe = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: String(recipient.index), recipient: sim.accounts[8]!.address, originChainId: LVM, destinationChainId: EVM,
      originCurrency: '0', destinationCurrency: await usdcOf(sim.baseUrl, EVM), amount: String(2n ** 53n), tradeType: 'EXACT_INPUT',
    });
    expect(unsafe).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_ON_CHAIN' } });
  });

  it('a refunded withdrawal goes back to the account as a real transfer from the solver', async () => {
    const account = await exchangeAccountOf(9);
    const before = BigInt((await accountByIndex(account.index)).collateral);
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: String(account.index), recipient: sim.accounts[9]!.address, originChainId: LVM, destinationChainId: EVM,
      originCurrency: '0', destinationCurrency: await usdcOf(sim.baseUrl, EVM), amount: '30000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    const step = quote.body.steps[0];
    const rule = sim.control.solver.addRule({ match: { requestId: step.requestId }, action: { kind: 'refund' } });
    try {
      const { action } = step.items[0].data;
      const submitted = await requestJson(`${exchange}/api/v1/transfer`, { method: 'POST', headers: { 'x-api-key': account.apiKey }, body: { accountIndex: account.index, action } });
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const status = await waitForSettledStatus(sim.baseUrl, step.requestId);
      expect(status.status).toBe('refund');
      const refund = sim.control.requests.get(step.requestId)!.outTxs.find((tx) => tx.type === 'refund')!;
      expect(refund).toMatchObject({ chainId: LVM, status: 'success' });
      const { body: tx } = await getJson(`${exchange}/api/v1/tx?by=hash&value=${refund.txHash}`);
      expect(tx.transfer).toMatchObject({ to_account_index: account.index, amount: '30000000', memo: step.requestId });
      // the deposit's fee is spent; the amount came back
      expect(BigInt((await accountByIndex(account.index)).collateral)).toBe(before - BigInt(action.parameters.usdcFee));
      const { body: history } = await getJson(`${exchange}/api/v1/accountTxs?by=account_index&value=${account.index}`);
      expect(history.txs.map((t: { hash: string }) => t.hash)).toEqual([refund.txHash, submitted.body.tx_hash]);
    } finally {
      sim.control.solver.removeRule(rule.id);
    }
  });
});
