import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from 'viem';
import { AccountApi, ApiClient, BadRequestException, ForbiddenException, TransactionApi, UnauthorizedException } from 'lighter-ts-sdk';
import { startSimulator, type RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, postJson, requestJson, usdcOf } from '../support/bridgeClient';
import { pooledChains } from '../support/pooledNodes';

// covers: status:refund, status:waiting, failReason:TRANSACTION_SUBMISSION_FAILED, failReason:SOLVER_BALANCE_TOO_LOW

const LVM = 3586256;
const EVM = 8453;
/** The solver's account on the exchange (the chain's depository). */
const SOLVER = 1;

/**
 * The control plane on the exchange chain (Lighter): its account faults (pause, revoked key,
 * collateral), snapshot / revert, mine and the clock, with what they do to requests; what the
 * exchange answers is read and sent through lighter-ts-sdk (a client this project did not write).
 */
describe('the control plane on the exchange chain (/admin/chains/3586256/…)', () => {
  let sim: RunningSimulator;
  let exchange: string;
  let sdk: ApiClient;
  let transactions: TransactionApi;
  let accounts: AccountApi;
  const admin = (method: string, path: string, body?: unknown) => requestJson(`${sim.baseUrl}${path}`, { method, body });
  const account = (i: number) => {
    const listed = sim.chains.find((chain) => chain.id === LVM)!.accounts![i]!;
    return { index: Number(listed.address), apiKey: listed.privateKey };
  };
  const collateralOf = async (index: number) => ((await accounts.getAccount({ by: 'index', value: String(index) })) as unknown as { accounts: Array<{ collateral: string }> }).accounts[0]!.collateral;
  const settled = async (requestId: string) => {
    await sim.control.chain(EVM).syncNow();
    await sim.control.solver.idle();
    return sim.control.requests.get(requestId)!;
  };
  const statusesOf = (requestId: string) => sim.control.requests.eventsFor(requestId).map((event) => event.toStatus);

  /** USDC on Base → exchange account `recipient`, quoted and deposited; answers the request id. */
  const depositToExchange = async (recipient: number, beforeDeposit: () => Promise<unknown> = async () => undefined) => {
    const user = sim.accounts[0]!;
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: user.address, recipient: String(recipient), originChainId: EVM, destinationChainId: LVM,
      originCurrency: await usdcOf(sim.baseUrl, EVM), destinationCurrency: '0', amount: '30000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    await beforeDeposit();
    await executeQuoteSteps(sim, user.privateKey as Hex, quote.body);
    return quote.body.steps.at(-1).requestId as string;
  };

  /** Exchange account `from` → Base: the quote's transfer action, as a client sends it. */
  const quoteWithdrawal = async (from: number) => {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: String(from), recipient: sim.accounts[5]!.address, originChainId: LVM, destinationChainId: EVM,
      originCurrency: '0', destinationCurrency: await usdcOf(sim.baseUrl, EVM), amount: '20000000', tradeType: 'EXACT_INPUT',
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    return { requestId: quote.body.steps[0].requestId as string, action: quote.body.steps[0].items[0].data.action };
  };
  const sendOnExchange = (from: { index: number; apiKey: string }, action: unknown, nonce?: number) =>
    sdk.post('/api/v1/transfer', { accountIndex: from.index, action, ...(nonce === undefined ? {} : { nonce }) }, { headers: { 'x-api-key': from.apiKey } });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, env: {}, log: () => undefined, clockMode: 'manual', clockStartMs: Date.UTC(2026, 0, 1), chains: [...pooledChains([EVM]), { id: LVM }] });
    exchange = sim.chains.find((chain) => chain.id === LVM)!.rpcUrl;
    sdk = new ApiClient({ host: exchange });
    transactions = new TransactionApi(sdk);
    accounts = new AccountApi(sdk);
  });
  afterAll(async () => {
    await sim?.stop();
  });

  it('a paused recipient: the quote is refused; paused after the quote, the solver’s fill is refused (ACCOUNT_PAUSED) → TRANSACTION_SUBMISSION_FAILED, refunded on Base; unpaused, the next one fills', async () => {
    const recipient = account(3).index;
    const pause = () => admin('POST', `/admin/chains/${LVM}/accounts/${recipient}`, { paused: true });
    const paused = await pause();
    expect(paused).toEqual({ status: 200, body: { chainId: LVM, account: String(recipient), paused: true, apiKeyRevoked: false, collateral: '1000000000000' } });
    // paused before the quote: the quote's simulated fill already fails
    const quoted = await postJson(`${sim.baseUrl}/quote/v2`, {
      user: sim.accounts[0]!.address, recipient: String(recipient), originChainId: EVM, destinationChainId: LVM,
      originCurrency: await usdcOf(sim.baseUrl, EVM), destinationCurrency: '0', amount: '30000000', tradeType: 'EXACT_INPUT',
    });
    expect(quoted).toMatchObject({ status: 400, body: { errorCode: 'DESTINATION_TX_FAILED', message: expect.stringContaining(`account ${recipient} is paused`) } });
    await admin('POST', `/admin/chains/${LVM}/accounts/${recipient}`, { paused: false });

    // paused between the quote and the deposit: the fill itself is refused
    const solverNonce = (await transactions.getNextNonce(SOLVER, 0)).nonce;
    const refused = await settled(await depositToExchange(recipient, pause));
    expect(refused).toMatchObject({ status: 'refund', failReason: 'TRANSACTION_SUBMISSION_FAILED' });
    expect(statusesOf(refused.id)).toEqual(['waiting', 'pending', 'failure', 'refund']);
    expect(refused.outTxs.map((tx) => tx.chainId)).toEqual([EVM]);
    // the exchange moved nothing: the solver's nonce and the recipient's collateral are as they were
    expect((await transactions.getNextNonce(SOLVER, 0)).nonce).toBe(solverNonce);
    expect(await collateralOf(recipient)).toBe('1000000000000');
    // a paused account's own transfer is refused too: 403, which the SDK reads as ForbiddenException
    await expect(sendOnExchange(account(3), { type: 'transfer', parameters: { toAccountIndex: account(4).index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1, usdcFee: 10_000 } })).rejects.toBeInstanceOf(ForbiddenException);

    expect((await admin('POST', `/admin/chains/${LVM}/accounts/${recipient}`, { paused: false })).body.paused).toBe(false);
    expect(await settled(await depositToExchange(recipient))).toMatchObject({ status: 'success' });
  });

  it("the solver's API key revoked: its fill is refused (INVALID_API_KEY) → TRANSACTION_SUBMISSION_FAILED and refunded; restored, it fills", async () => {
    expect((await admin('POST', `/admin/chains/${LVM}/accounts/${SOLVER}`, { apiKeyRevoked: true })).body.apiKeyRevoked).toBe(true);
    const refused = await settled(await depositToExchange(account(4).index));
    expect(refused).toMatchObject({ status: 'refund', failReason: 'TRANSACTION_SUBMISSION_FAILED' });
    await admin('POST', `/admin/chains/${LVM}/accounts/${SOLVER}`, { apiKeyRevoked: false });
    expect(await settled(await depositToExchange(account(4).index))).toMatchObject({ status: 'success' });
  });

  it("the solver's collateral spent after the quote: INSUFFICIENT_BALANCE on the exchange → SOLVER_BALANCE_TOO_LOW, refunded", async () => {
    const before = await collateralOf(SOLVER);
    const requestId = await depositToExchange(account(4).index, () => admin('POST', `/admin/chains/${LVM}/accounts/${SOLVER}`, { collateral: '1000' }));
    const refused = await settled(requestId);
    expect(refused).toMatchObject({ status: 'refund', failReason: 'SOLVER_BALANCE_TOO_LOW' });
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'failure', 'refund']);
    expect(await collateralOf(SOLVER)).toBe('1000');
    await admin('POST', `/admin/chains/${LVM}/accounts/${SOLVER}`, { collateral: before });
  });

  it('Lighter as the origin: a paused or key-revoked account’s transfer is refused, the request stays waiting; once allowed it fills', async () => {
    const user = account(2);
    const { requestId, action } = await quoteWithdrawal(user.index);
    await admin('POST', `/admin/chains/${LVM}/accounts/${user.index}`, { paused: true });
    await expect(sendOnExchange(user, action)).rejects.toMatchObject({ status: 403, message: `account ${user.index} is paused: it sends and receives nothing until it is unpaused` });
    await admin('POST', `/admin/chains/${LVM}/accounts/${user.index}`, { paused: false, apiKeyRevoked: true });
    await expect(sendOnExchange(user, action)).rejects.toBeInstanceOf(UnauthorizedException);
    expect((await settled(requestId)).status).toBe('waiting');
    await admin('POST', `/admin/chains/${LVM}/accounts/${user.index}`, { apiKeyRevoked: false });
    await sendOnExchange(user, action);
    expect(await settled(requestId)).toMatchObject({ status: 'success' });
  });

  it('a withdrawal action sent twice with the same nonce: the exchange refuses the second (INVALID_NONCE); the request is filled once', async () => {
    const user = account(5);
    const { requestId, action } = await quoteWithdrawal(user.index);
    const nonce = (await transactions.getNextNonce(user.index, 0)).nonce;
    await sendOnExchange(user, action, nonce);
    await expect(sendOnExchange(user, action, nonce)).rejects.toSatisfy((error) => error instanceof BadRequestException && /nonce .* is not above/.test(error.message));
    expect((await transactions.getNextNonce(user.index, 0)).nonce).toBe(nonce + 1);
    const record = await settled(requestId);
    expect(record).toMatchObject({ status: 'success' });
    expect(record.inTxs).toHaveLength(1);
    expect(statusesOf(requestId)).toEqual(['waiting', 'pending', 'submitted', 'success']);
  });

  it('snapshot and revert the ledger (hex id): height, nonces and collateral come back; mine adds empty blocks; reorg and automine off are refused', async () => {
    const user = account(6);
    const height = (await transactions.getCurrentHeight()).height;
    const snapshot = await admin('POST', `/admin/chains/${LVM}/snapshot`);
    expect(snapshot.status).toBe(201);
    expect(snapshot.body).toEqual({ chainId: LVM, id: expect.stringMatching(/^0x[0-9a-f]+$/) });
    await sendOnExchange(user, { type: 'transfer', parameters: { toAccountIndex: account(7).index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 5_000_000, usdcFee: 10_000 } });
    await admin('POST', `/admin/chains/${LVM}/accounts/${user.index}`, { paused: true });
    expect((await admin('POST', `/admin/chains/${LVM}/mine`, { blocks: 3 })).body).toEqual({ chainId: LVM, mined: 3 });
    expect((await transactions.getCurrentHeight()).height).toBe(height + 4);
    expect((await admin('POST', `/admin/chains/${LVM}/revert`, { id: snapshot.body.id })).body).toEqual({ chainId: LVM, revertedTo: snapshot.body.id });
    expect((await transactions.getCurrentHeight()).height).toBe(height);
    expect((await transactions.getNextNonce(user.index, 0)).nonce).toBe(1);
    expect([await collateralOf(user.index), await collateralOf(account(7).index)]).toEqual(['1000000000000', '1000000000000']);
    // the pause came after the snapshot: reverted too
    await sendOnExchange(user, { type: 'transfer', parameters: { toAccountIndex: account(7).index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1, usdcFee: 10_000 } });

    const missing = await admin('POST', `/admin/chains/${LVM}/revert`, { id: '0xffff' });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toContain('no snapshot 0xffff');
    // an exchange has no blocks to reorg and no mempool to hold transfers in (docs/chains/lighter.md)
    for (const [path, body] of [['reorg', { depth: 1 }], ['automine', { enabled: false }]] as const) {
      const refused = await admin('POST', `/admin/chains/${LVM}/${path}`, body);
      expect(refused.status, path).toBe(400);
      expect(['CHEAT_CALL_REFUSED', 'UNSUPPORTED_ON_CHAIN'], path).toContain(refused.body.errorCode);
    }
  });

  it('the clock moves the exchange’s block times with it', async () => {
    await admin('POST', '/admin/clock/advance', { seconds: 3600 });
    const sent = await sendOnExchange(account(8), { type: 'transfer', parameters: { toAccountIndex: account(9).index, assetIndex: 3, fromRouteType: 0, toRouteType: 0, amount: 1, usdcFee: 10_000 } });
    const tx = await transactions.getTransaction({ by: 'hash', value: sent.data.tx_hash });
    expect(tx.executed_at).toBe(sim.control.clock.now());
    expect(sim.control.clock.now()).toBeGreaterThanOrEqual(Date.UTC(2026, 0, 1) + 3_600_000);
  });

  it('bad input is a 4xx with an errorCode: no such account, an empty change, a chain without exchange accounts', async () => {
    const unknown = await admin('POST', `/admin/chains/${LVM}/accounts/999999`, { paused: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ errorCode: 'CHEAT_CALL_REFUSED', message: `chain ${LVM} refused a change to account 999999: no account 999999 on the exchange` });
    for (const [path, body] of [[`/admin/chains/${LVM}/accounts/2`, {}], [`/admin/chains/${LVM}/accounts/x`, { paused: true }], [`/admin/chains/${LVM}/accounts/2`, { collateral: -1 }]] as const) {
      const answer = await admin('POST', path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body.errorCode, path).toBe('INVALID_INPUT_PARAMS');
    }
    const evm = await admin('POST', `/admin/chains/${EVM}/accounts/2`, { paused: true });
    expect(evm).toMatchObject({ status: 400, body: { errorCode: 'UNSUPPORTED_ON_CHAIN' } });
    expect((await admin('POST', '/admin/chains/10/accounts/2', { paused: true })).status).toBe(404);
  });
});
