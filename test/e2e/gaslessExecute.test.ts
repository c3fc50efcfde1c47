// covers: endpoint:POST /execute, status:depositing, transition:waiting->depositing, transition:depositing->pending, transition:depositing->failure, transition:depositing->success, status:success, status:failure
// covers: failReason:SPONSOR_BALANCE_TOO_LOW, failReason:TRANSACTION_SUBMISSION_FAILED, failReason:TRANSACTION_NOT_INCLUDED, failReason:CONTRACT_PAUSED
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertViemChainToRelayChain, createClient, getClient, type Execute } from '@relayprotocol/relay-sdk';
import { createWalletClient, encodeAbiParameters, encodeFunctionData, http, pad, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { batchExecutorArtifact, depositoryArtifact, pausableBadgeArtifact, stablecoinArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { startTestSimulator } from '../support/startTestSimulator';
import { getJson, requestJson, waitForSettledStatus } from '../support/bridgeClient';
import { expectPublishedRecord, expectPublishedType } from '../support/publishedApiTypes';
import { balanceOn } from '../support/swapClient';
import { evmChainOf } from '../support/evmChainOf';
import { deployFixture } from '../support/callReverts';

const ORIGIN = 1;
const DESTINATION = 8453;
const CALIBUR = '0x000000009B1D0aF20D8C6d0A44e162d11F9b8f00';

/**
 * SPEC §1.6 gasless execution, `POST /execute`: the official SDK's `executeGaslessBatch` (EIP-7702
 * delegation to the Calibur batch executor, signed batch, relayer submits) against the simulator;
 * the relayer pays the gas, the request goes waiting → depositing → pending → submitted → success.
 * Also the §7.1 simulation errors and the §7.2 relay failures, on real chain state.
 */
describe('gasless execution (POST /execute)', () => {
  let sim: RunningSimulator;
  let stablecoin: Address;
  beforeAll(async () => {
    sim = await startTestSimulator();
    stablecoin = evmChainOf(sim, ORIGIN).contractAddresses.stablecoin;
  });
  afterAll(async () => {
    await sim?.stop();
  });

  function walletOf(accountIndex: number) {
    const chain = evmChainOf(sim, ORIGIN);
    return createWalletClient({ account: privateKeyToAccount(sim.accounts[accountIndex]!.privateKey as Hex), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  }

  function createSdkClient(): void {
    createClient({
      baseApiUrl: sim.baseUrl,
      source: 'intentsim-test',
      apiKey: 'any-key-the-sdk-does-not-send-to-a-local-url',
      chains: sim.chains.map((chain) => convertViemChainToRelayChain(evmChainOf(sim, chain.id).viemChain())),
      // the SDK polls the request's status every 10 ms (its default is 5 s), for up to 30 s
      pollingInterval: 10,
      maxPollingAttemptsBeforeTimeout: 3000,
    });
  }

  async function quoteStablecoinBridge(accountIndex: number, amount: string): Promise<Execute> {
    return getClient().actions.getQuote(
      { chainId: ORIGIN, toChainId: DESTINATION, currency: stablecoin, toCurrency: evmChainOf(sim, DESTINATION).contractAddresses.stablecoin, amount, tradeType: 'EXACT_INPUT', wallet: walletOf(accountIndex) },
      true,
    );
  }

  /** What executeGaslessBatch posts, built the same way: the quote's calls as one Calibur batch the user signed. */
  async function gaslessBatchBody(accountIndex: number, quote: Execute, options: { subsidizeFees: boolean }) {
    const wallet = walletOf(accountIndex);
    const user = wallet.account.address;
    const client = evmChainOf(sim, ORIGIN).publicClient;
    const calls = quote.steps.flatMap((step) => step.items.map((item) => ({ to: item.data.to as Address, value: BigInt(item.data.value ?? '0'), data: item.data.data as Hex })));
    const code = await client.getCode({ address: user });
    const authorizationList = code?.startsWith('0xef0100')
      ? undefined
      : [await wallet.signAuthorization({ account: wallet.account, contractAddress: CALIBUR, chainId: ORIGIN, nonce: await client.getTransactionCount({ address: user }) })];
    const nonce = code?.startsWith('0xef0100') ? await client.readContract({ address: user, abi: batchExecutorArtifact.abi, functionName: 'getSeq', args: [0n] }) : 0n;
    const message = { batchedCall: { calls, revertOnFailure: true }, nonce, keyHash: pad('0x00'), executor: '0x0000000000000000000000000000000000000000' as Address, deadline: 0n };
    const signature = await wallet.signTypedData({
      domain: { name: 'Calibur', version: '1.0.0', chainId: BigInt(ORIGIN), verifyingContract: user, salt: pad(CALIBUR, { size: 32 }) },
      types: {
        SignedBatchedCall: [
          { name: 'batchedCall', type: 'BatchedCall' },
          { name: 'nonce', type: 'uint256' },
          { name: 'keyHash', type: 'bytes32' },
          { name: 'executor', type: 'address' },
          { name: 'deadline', type: 'uint256' },
        ],
        BatchedCall: [
          { name: 'calls', type: 'Call[]' },
          { name: 'revertOnFailure', type: 'bool' },
        ],
        Call: [
          { name: 'to', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
      },
      primaryType: 'SignedBatchedCall',
      message,
    });
    const data = encodeFunctionData({ abi: batchExecutorArtifact.abi, functionName: 'execute', args: [message, encodeAbiParameters([{ type: 'bytes' }, { type: 'bytes' }], [signature, '0x'])] });
    return {
      executionKind: 'rawCalls',
      data: {
        chainId: ORIGIN,
        to: user,
        data,
        value: '0',
        ...(authorizationList ? { authorizationList: authorizationList.map((a) => ({ chainId: a.chainId, address: a.address, nonce: a.nonce, yParity: a.yParity ?? 0, r: a.r, s: a.s })) } : {}),
      },
      executionOptions: { referrer: 'intentsim-test', subsidizeFees: options.subsidizeFees },
      requestId: quote.steps.at(-1)!.requestId!,
    };
  }

  function statusesOf(requestId: string): string[] {
    return sim.control.requests.eventsFor(requestId).map((event) => event.toStatus);
  }

  it('runs the official SDK executeGaslessBatch unmodified: the relayer pays, the request passes through depositing to success', async () => {
    createSdkClient();
    const account = 3;
    const user = sim.accounts[account]!.address as Address;
    const quote = await quoteStablecoinBridge(account, '25000000');
    expect(quote.steps.map((step) => step.id)).toEqual(['approve', 'deposit']);
    const requestId = quote.steps.at(-1)!.requestId!;
    const [nativeBefore, stableBefore] = await Promise.all([balanceOn(sim, ORIGIN, '0x0000000000000000000000000000000000000000', user), balanceOn(sim, ORIGIN, stablecoin, user)]);

    const result = await getClient().actions.executeGaslessBatch({ quote, walletClient: walletOf(account) });
    expect(result.requestId).toBe(requestId);

    const status = await waitForSettledStatus(sim.baseUrl, requestId);
    expect(status.status).toBe('success');
    expect(statusesOf(requestId)).toEqual(['waiting', 'depositing', 'pending', 'submitted', 'success']);
    // the user sent no transaction and paid no gas; the deposit left their stablecoin
    expect(await balanceOn(sim, ORIGIN, '0x0000000000000000000000000000000000000000', user)).toBe(nativeBefore);
    expect(await balanceOn(sim, ORIGIN, stablecoin, user)).toBe(stableBefore - 25_000_000n);
    // the origin transaction is the relayer's type-4 transaction that delegated the user's account;
    // the relayer is an account of its own (neither the user nor the solver) and it paid the gas
    const record = sim.control.requests.get(requestId)!;
    expect(record.quote.features).toContain('gasless_execution');
    expect(record.depositor?.toLowerCase()).toBe(user.toLowerCase());
    const origin = evmChainOf(sim, ORIGIN).publicClient;
    const depositTx = await origin.getTransaction({ hash: record.inTxs[0]!.txHash as Hex });
    expect(depositTx.type).toBe('eip7702');
    expect([user.toLowerCase(), sim.control.solverAddress.toLowerCase()]).not.toContain(depositTx.from.toLowerCase());
    const receipt = await origin.getTransactionReceipt({ hash: depositTx.hash });
    expect(receipt.gasUsed * receipt.effectiveGasPrice).toBeGreaterThan(0n);
    expect(await evmChainOf(sim, ORIGIN).publicClient.getCode({ address: user })).toBe(`0xef0100${CALIBUR.slice(2).toLowerCase()}`);
  });

  it('without requestId, the request is the one the call deposits for (read from the simulated trace)', async () => {
    createSdkClient();
    const quote = await quoteStablecoinBridge(9, '4000000');
    const requestId = quote.steps.at(-1)!.requestId!;
    const { requestId: _omitted, ...body } = await gaslessBatchBody(9, quote, { subsidizeFees: false });
    const accepted = await requestJson(`${sim.baseUrl}/execute`, { method: 'POST', body });
    expect(accepted).toMatchObject({ status: 200, body: { requestId } });
    expectPublishedType('Execute', accepted.body);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    expect(statusesOf(requestId)).toEqual(['waiting', 'depositing', 'pending', 'submitted', 'success']);
    // the same call again: the request is past waiting, and the batch's nonce is used
    const again = await requestJson(`${sim.baseUrl}/execute`, { method: 'POST', body: { ...body, requestId } });
    expect(again).toMatchObject({ status: 409, body: { errorCode: 'REQUEST_NOT_WAITING', requestId } });
    // last: the first check of a record against its published type compiles the schema, which holds
    // the event loop for seconds under load, past the server's keep-alive timeout; a request sent
    // right after it on the same socket was reset (ECONNRESET)
    expect(await expectPublishedRecord(sim, requestId)).toMatchObject({ features: ['gasless_execution'] });
  });

  it('answers a reverting raw call with the decoded error, the request id and the call trace, sponsored or not', async () => {
    createSdkClient();
    const account = 4;
    const quote = await quoteStablecoinBridge(account, '5000000');
    const requestId = quote.steps.at(-1)!.requestId!;
    const depository = evmChainOf(sim, ORIGIN).contractAddresses.depository;
    // the relayer's own call into the depository: it has no allowance, so the token's transferFrom reverts
    const data = encodeFunctionData({ abi: depositoryArtifact.abi, functionName: 'depositErc20', args: [sim.accounts[account]!.address as Address, stablecoin, 5_000_000n, requestId as Hex] });
    for (const subsidizeFees of [false, true]) {
      const answer = await requestJson(`${sim.baseUrl}/execute`, {
        method: 'POST',
        body: { executionKind: 'rawCalls', data: { chainId: ORIGIN, to: depository, data, value: '0' }, executionOptions: { referrer: 'intentsim-test', subsidizeFees }, requestId },
      });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ errorCode: 'EXECUTION_REVERTED', error: 'InsufficientAllowance()', requestId });
      const { details } = answer.body;
      expect(details.topLevel).toMatchObject({ to: depository, error: 'execution reverted' });
      expect(details.innermost.to).toBe(stablecoin);
      expect(details.path.map((frame: { to: string }) => frame.to)).toEqual([depository, stablecoin]);
      expect(details.revert).toMatchObject({ type: 'customError', name: 'InsufficientAllowance', label: 'InsufficientAllowance()', selector: expect.stringMatching(/^0x[0-9a-f]{8}$/) });
    }
    // nothing was sent: the request still waits for its deposit
    expect(statusesOf(requestId)).toEqual(['waiting']);
  });

  it('draws subsidized calls from the API key sponsor balance; an empty balance fails the request with SPONSOR_BALANCE_TOO_LOW', async () => {
    createSdkClient();
    const key = (await requestJson(`${sim.baseUrl}/admin/api-keys`, { method: 'POST', body: { name: 'sponsor' } })).body.apiKey as string;
    const headers = { 'x-api-key': key };

    const starved = await quoteStablecoinBridge(5, '3000000');
    const starvedId = starved.steps.at(-1)!.requestId!;
    const refused = await requestJson(`${sim.baseUrl}/execute`, { method: 'POST', headers, body: await gaslessBatchBody(5, starved, { subsidizeFees: true }) });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ errorCode: 'SPONSOR_BALANCE_TOO_LOW', requestId: starvedId });
    expect(statusesOf(starvedId)).toEqual(['waiting', 'depositing', 'failure']);
    expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${starvedId}`)).body.status).toBe('failure');
    expect(sim.control.requests.get(starvedId)!.failReason).toBe('SPONSOR_BALANCE_TOO_LOW');

    const funded = await requestJson(`${sim.baseUrl}/admin/sponsor-balances/${key}`, { method: 'PUT', body: { balanceUsd: '50' } });
    expect(funded.body).toMatchObject({ balanceUsdMicros: '50000000' });
    const quote = await quoteStablecoinBridge(6, '3000000');
    const requestId = quote.steps.at(-1)!.requestId!;
    const accepted = await requestJson(`${sim.baseUrl}/execute`, { method: 'POST', headers, body: await gaslessBatchBody(6, quote, { subsidizeFees: true }) });
    expect(accepted).toMatchObject({ status: 200, body: { requestId } });
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    expect(statusesOf(requestId)).toEqual(['waiting', 'depositing', 'pending', 'submitted', 'success']);
    const left = BigInt((await requestJson(`${sim.baseUrl}/admin/sponsor-balances/${key}`, { method: 'GET' })).body.balanceUsdMicros);
    expect(left).toBeGreaterThan(0n);
    expect(left).toBeLessThan(50_000_000n);
  });

  it('fails the request with TRANSACTION_SUBMISSION_FAILED when the node refuses the relayer, and TRANSACTION_NOT_INCLUDED when the call is never included', async () => {
    createSdkClient();
    const refusedQuote = await quoteStablecoinBridge(7, '2000000');
    const refusedId = refusedQuote.steps.at(-1)!.requestId!;
    sim.control.solver.addRule({ match: { requestId: refusedId }, action: { kind: 'refuseRelay' } });
    const refused = await requestJson(`${sim.baseUrl}/execute`, { method: 'POST', body: await gaslessBatchBody(7, refusedQuote, { subsidizeFees: false }) });
    expect(refused).toMatchObject({ status: 200, body: { requestId: refusedId } });
    expect(statusesOf(refusedId)).toEqual(['waiting', 'depositing', 'failure']);
    expect(sim.control.requests.get(refusedId)!.failReason).toBe('TRANSACTION_SUBMISSION_FAILED');

    const droppedQuote = await quoteStablecoinBridge(8, '2000000');
    const droppedId = droppedQuote.steps.at(-1)!.requestId!;
    sim.control.solver.addRule({ match: { requestId: droppedId }, action: { kind: 'dropRelay' } });
    const dropped = await requestJson(`${sim.baseUrl}/execute`, { method: 'POST', body: await gaslessBatchBody(8, droppedQuote, { subsidizeFees: false }) });
    expect(dropped).toMatchObject({ status: 200, body: { requestId: droppedId } });
    expect(statusesOf(droppedId)).toEqual(['waiting', 'depositing']);
    await sim.control.advanceTime(3600);
    await expect.poll(() => statusesOf(droppedId)).toEqual(['waiting', 'depositing', 'failure']);
    expect(sim.control.requests.get(droppedId)!.failReason).toBe('TRANSACTION_NOT_INCLUDED');
    sim.control.solver.clearRules();
  });
  it('a raw call that names no request is a Call request of its own: the official SDK polls the requestId it is answered to success', async () => {
    createSdkClient();
    const account = 2;
    const user = sim.accounts[account]!.address as Address;
    const recipient = sim.accounts[1]!.address as Address;
    // executeGaslessBatch on calls of the integrator's own (no quote, so no requestId): a stablecoin transfer
    const transfer = encodeFunctionData({ abi: stablecoinArtifact.abi, functionName: 'transfer', args: [recipient, 1_500_000n] });
    const calls = { steps: [{ id: 'transfer', kind: 'transaction', items: [{ status: 'incomplete', data: { chainId: ORIGIN, to: stablecoin, data: transfer, value: '0' } }] }] };
    const [nativeBefore, receivedBefore] = await Promise.all([balanceOn(sim, ORIGIN, '0x0000000000000000000000000000000000000000', user), balanceOn(sim, ORIGIN, stablecoin, recipient)]);

    const result = await getClient().actions.executeGaslessBatch({ quote: calls as unknown as Execute, walletClient: walletOf(account) });
    expect(result.requestId).toMatch(/^0x[0-9a-f]{64}$/);
    const { requestId } = result;
    expect(statusesOf(requestId)).toEqual(['waiting', 'depositing', 'success']);
    expect(await balanceOn(sim, ORIGIN, stablecoin, recipient)).toBe(receivedBefore + 1_500_000n);
    expect(await balanceOn(sim, ORIGIN, '0x0000000000000000000000000000000000000000', user)).toBe(nativeBefore);

    // the relayed transaction is the request's one transaction, origin side
    const status = (await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body;
    expect(status).toMatchObject({ status: 'success', originChainId: ORIGIN, destinationChainId: ORIGIN, txHashes: [], failReason: 'N/A' });
    expect(status.inTxHashes).toHaveLength(1);
    const relayed = await evmChainOf(sim, ORIGIN).publicClient.getTransaction({ hash: status.inTxHashes[0] as Hex });
    expect(relayed.to?.toLowerCase()).toBe(user.toLowerCase());
    const listed = (await requestJson(`${sim.baseUrl}/requests/v3?id=${requestId}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } })).body.requests;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: requestId, status: 'success', requestType: 'Call' });
    expect(listed[0].user.toLowerCase()).toBe(user.toLowerCase());
    expect(listed[0].data.inTxs).toMatchObject([{ txHash: status.inTxHashes[0], type: 'call', status: 'success', chainId: ORIGIN }]);
    expect(sim.control.requests.get(requestId)!.quote.features).toEqual(['gasless_execution']);
  });

  it('a raw call of its own that reverts on chain after its simulation passed ends in failure with the reason its revert maps to', async () => {
    const chain = evmChainOf(sim, ORIGIN);
    const issuer = sim.accounts[1]!;
    const badge = await deployFixture(sim, ORIGIN, issuer.privateKey, 'PausableBadge', [issuer.address as Address]);
    const claim = encodeFunctionData({ abi: pausableBadgeArtifact.abi, functionName: 'claim', args: [sim.accounts[0]!.address as Address] });
    await chain.setAutomine(false);
    try {
      // the claim simulates against an unpaused badge and is broadcast; the issuer's pause, paying a
      // higher tip, is mined ahead of it in the same block
      const accepted = await requestJson(`${sim.baseUrl}/execute`, {
        method: 'POST',
        body: { executionKind: 'rawCalls', data: { chainId: ORIGIN, to: badge, data: claim, value: '0' }, executionOptions: { referrer: 'intentsim-test', subsidizeFees: false } },
      });
      expect(accepted.status).toBe(200);
      const requestId = accepted.body.requestId as string;
      expect(accepted.body.message).toMatch(/^Relayed as 0x[0-9a-f]{64}$/);
      expect((await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${requestId}`)).body.status).toBe('depositing');
      await walletOf(1).writeContract({ address: badge, abi: pausableBadgeArtifact.abi, functionName: 'pause', maxPriorityFeePerGas: 50_000_000_000n, maxFeePerGas: 200_000_000_000n });
      await chain.mine(1);
      await chain.setAutomine(true);

      const settled = await waitForSettledStatus(sim.baseUrl, requestId);
      expect(settled).toMatchObject({ status: 'failure', failReason: 'CONTRACT_PAUSED', txHashes: [] });
      expect(settled.details).toMatchObject({ decodedRevert: { errorName: 'EnforcedPause' } });
      expect(statusesOf(requestId)).toEqual(['waiting', 'depositing', 'failure']);
      const [listed] = (await requestJson(`${sim.baseUrl}/requests/v3?id=${requestId}`, { method: 'GET', headers: { 'x-api-key': sim.apiKey } })).body.requests;
      const relayedHash = accepted.body.message.slice('Relayed as '.length);
      expect(listed).toMatchObject({ requestType: 'Call', data: { failReason: 'CONTRACT_PAUSED', failedTxHash: relayedHash, inTxs: [{ txHash: relayedHash, type: 'call', status: 'failure' }] } });
      expect(listed.data.failedCallData.to.toLowerCase()).toBe(badge.toLowerCase());
    } finally {
      await chain.setAutomine(true);
    }
  });
});
