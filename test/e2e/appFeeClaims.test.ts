// covers: endpoint:POST /quote/v2, operation:get app fee balances, operation:claim app fees, status:success
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertViemChainToRelayChain, createClient, getClient } from '@relayprotocol/relay-sdk';
import { createWalletClient, erc20Abi, getAddress, http, zeroAddress, type Address, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, postJson, publicClientFor, waitForSettledStatus } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';
import { AppFeeBalancesSchema, AppFeeClaimStepsSchema, AppFeeClaimsSchema, expectPublishedShape } from '../support/publishedApiSchemas';
import { expectPublishedType } from '../support/publishedApiTypes';

/**
 * SPEC §1.6 app fees end to end: two real fills carrying app fees credit their recipients, the
 * balance is read over HTTP, the official SDK's `claimAppFees` signs the claim step and the solver
 * pays the claim on chain; the balance drops to 0 and a second claim pays nothing.
 */
describe('app fee balances and claims (SPEC §1.6, §4.7) against real chains', () => {
  let sim: RunningSimulator;
  let usdc: (chainId: number) => Address;
  /** The integrator: an app fee recipient that can sign (test account 6). */
  let app: { address: Address; privateKey: Hex };
  /** A second recipient of the second request's app fees. */
  const PARTNER = '0x000000000000000000000000000000000000b0b0' as Address;
  /** Where the claim pays: an address with no USDC yet. */
  const TREASURY = getAddress('0x0000000000000000000000000000000000c1a1c1');

  beforeAll(async () => {
    sim = await sharedTestSimulator();
    usdc = (chainId) => evmChainOf(sim, chainId).contractAddresses.stablecoin;
    app = { address: sim.accounts[6]!.address as Address, privateKey: sim.accounts[6]!.privateKey as Hex };
  });
  afterAll(async () => {
    await sim?.stop();
  });

  const usdcBalanceOn = (chainId: number, owner: Address) =>
    publicClientFor(sim, chainId).readContract({ address: usdc(chainId), abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  /** Quotes with app fees, pays the deposit from test account 4 and waits for the fill. */
  async function fillWithAppFees(body: Record<string, unknown>): Promise<string> {
    const quote = await postJson(`${sim.baseUrl}/quote/v2`, { user: sim.accounts[4]!.address, originChainId: 1, destinationChainId: 8453, tradeType: 'EXACT_INPUT', ...body });
    expect(quote.status).toBe(200);
    const requestId = quote.body.steps.at(-1).requestId as string;
    await executeQuoteSteps(sim, sim.accounts[4]!.privateKey as Hex, quote.body);
    expect((await waitForSettledStatus(sim.baseUrl, requestId)).status).toBe('success');
    return requestId;
  }

  function sdkClient(): void {
    createClient({
      baseApiUrl: sim.baseUrl,
      source: 'intentsim-test',
      chains: sim.chains.map((chain) => convertViemChainToRelayChain(evmChainOf(sim, chain.id).viemChain())),
      pollingInterval: 50,
    });
  }

  function appWallet(chainId: number) {
    const chain = evmChainOf(sim, chainId);
    return createWalletClient({ account: privateKeyToAccount(app.privateKey), chain: chain.viemChain(), transport: http(chain.rpcUrl) });
  }

  it('credits the actual app fees of two fills, and the SDK claim pays them on chain once', async () => {
    // before any fill: nothing to claim
    const empty = await getJson(`${sim.baseUrl}/app-fees/${app.address}/balances`);
    expect(empty).toEqual({ status: 200, body: { balances: [], totalBalanceUsd: 0, outstandingFastFillBalanceUsd: 0, availableBalanceUsd: 0 } });

    const first = await fillWithAppFees({ originCurrency: usdc(1), destinationCurrency: usdc(8453), amount: '100000000', appFees: [{ recipient: app.address, fee: '100' }] });
    const second = await fillWithAppFees({
      originCurrency: zeroAddress,
      destinationCurrency: zeroAddress,
      amount: '20000000000000000',
      appFees: [
        { recipient: app.address, fee: '50' },
        { recipient: PARTNER, fee: '25' },
      ],
    });

    // the balance is the sum of the records' actual app fees for this recipient, in chain 1's USDC
    const actualFor = (requestId: string, recipient: Address) =>
      (sim.control.requests.get(requestId)!.appFees?.actual ?? []).filter((fee) => fee.recipient.toLowerCase() === recipient.toLowerCase()).reduce((sum, fee) => sum + fee.amount, 0n);
    const expected = actualFor(first, app.address) + actualFor(second, app.address);
    expect(actualFor(first, app.address)).toBe(1_000_000n); // 100 bps of 100 USDC
    expect(actualFor(second, app.address)).toBeGreaterThan(0n);
    const balances = await getJson(`${sim.baseUrl}/app-fees/${app.address.toLowerCase()}/balances`);
    expect(balances.status).toBe(200);
    expectPublishedShape(AppFeeBalancesSchema, balances.body);
    expect(balances.body.balances).toEqual([
      {
        currency: expect.objectContaining({ chainId: 1, address: usdc(1), symbol: 'USDC', decimals: 6 }),
        amount: expected.toString(),
        amountFormatted: expect.any(String),
        amountUsd: expect.any(String),
        minimumAmount: expected.toString(),
      },
    ]);
    expect(balances.body.totalBalanceUsd).toBe(Number(balances.body.balances[0].amountUsd));
    expect(balances.body.availableBalanceUsd).toBe(balances.body.totalBalanceUsd);
    const partner = await getJson(`${sim.baseUrl}/app-fees/${PARTNER}/balances`);
    expect(partner.body.balances.map((b: { amount: string }) => b.amount)).toEqual([actualFor(second, PARTNER).toString()]);

    // the official SDK claims the whole balance to the treasury on chain 1: sign, post, paid on chain
    sdkClient();
    const before = await usdcBalanceOn(1, TREASURY);
    const claimed = await getClient().actions.claimAppFees({ wallet: appWallet(1), chainId: 1, currency: usdc(1), recipient: TREASURY });
    expect(claimed.data.steps.map((step) => [step.id, step.kind, step.items.map((item) => item.status)])).toEqual([['claim', 'signature', ['complete']]]);
    expect((await usdcBalanceOn(1, TREASURY)) - before).toBe(expected);

    // nothing left; the partner's balance is untouched
    const after = await getJson(`${sim.baseUrl}/app-fees/${app.address}/balances`);
    expect(after.body).toEqual({ balances: [], totalBalanceUsd: 0, outstandingFastFillBalanceUsd: 0, availableBalanceUsd: 0 });
    expect((await getJson(`${sim.baseUrl}/app-fees/${PARTNER}/balances`)).body.balances).toHaveLength(1);

    // the claims list shows the paid claim, with the transaction that paid it
    const claims = await getJson(`${sim.baseUrl}/app-fees/${app.address}/claims`);
    expect(claims.status).toBe(200);
    expectPublishedShape(AppFeeClaimsSchema, claims.body);
    expect(claims.body.claims).toEqual([
      {
        claimId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        wallet: app.address,
        recipient: TREASURY,
        currency: expect.objectContaining({ amount: expected.toString(), currency: expect.objectContaining({ chainId: 1, address: usdc(1) }) }),
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        status: 'success',
        createdAt: expect.any(String),
      },
    ]);
    const receipt = await publicClientFor(sim, 1).getTransactionReceipt({ hash: claims.body.claims[0].txHash });
    expect(receipt.status).toBe('success');

    // a second claim of the same (now empty) balance pays nothing: a 400 before any step, also through the SDK
    const again = await postJson(`${sim.baseUrl}/app-fees/${app.address}/claim`, { chainId: 1, currency: usdc(1), recipient: TREASURY });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ errorCode: 'INSUFFICIENT_APP_FEE_BALANCE', message: expect.stringContaining('no app fees') });
    await expect(getClient().actions.claimAppFees({ wallet: appWallet(1), chainId: 1, currency: usdc(1), recipient: TREASURY })).rejects.toMatchObject({ statusCode: 400, rawError: { errorCode: 'INSUFFICIENT_APP_FEE_BALANCE' } });
    expect(await usdcBalanceOn(1, TREASURY)).toBe(before + expected);
    expect((await getJson(`${sim.baseUrl}/app-fees/${app.address}/claims`)).body.claims).toHaveLength(1);
  });

  it('two claims handed out for one balance: the first signed pays, the second is refused; a claim is signed once', async () => {
    await fillWithAppFees({ originCurrency: usdc(1), destinationCurrency: usdc(8453), amount: '50000000', appFees: [{ recipient: app.address, fee: '200' }] });
    const balance = BigInt((await getJson(`${sim.baseUrl}/app-fees/${app.address}/balances`)).body.balances[0].amount);
    expect(balance).toBe(1_000_000n); // 200 bps of 50 USDC

    const account = privateKeyToAccount(app.privateKey);
    const startClaim = async () => {
      const response = await postJson(`${sim.baseUrl}/app-fees/${app.address}/claim`, { chainId: 1, currency: usdc(1), recipient: TREASURY });
      expect(response.status).toBe(200);
      expectPublishedShape(AppFeeClaimStepsSchema, response.body);
      expectPublishedType('AppFeeClaim', response.body);
      const item = response.body.steps[0].items[0];
      return { sign: item.data.sign, post: item.data.post };
    };
    const signAndPost = async (claim: Awaited<ReturnType<typeof startClaim>>, signature?: Hex) => {
      const signed = signature ?? (await account.signTypedData({ domain: claim.sign.domain, types: claim.sign.types, primaryType: claim.sign.primaryType, message: claim.sign.value }));
      return postJson(`${sim.baseUrl}${claim.post.endpoint}?signature=${signed}`, claim.post.body);
    };
    const one = await startClaim();
    const two = await startClaim();
    expect(one.sign.domain).toEqual({ name: 'AppFeeClaim', version: '1', chainId: 1 });
    expect(one.sign.value).toMatchObject({ wallet: app.address, recipient: TREASURY, amount: balance.toString() });

    // someone else's signature is not the wallet's
    const stranger = await privateKeyToAccount(sim.accounts[2]!.privateKey as Hex).signTypedData({ domain: one.sign.domain, types: one.sign.types, primaryType: one.sign.primaryType, message: one.sign.value });
    const forged = await signAndPost(one, stranger);
    expect(forged.status).toBe(400);
    expect(forged.body.errorCode).toBe('INVALID_SIGNATURE');

    const before = await usdcBalanceOn(1, TREASURY);
    const paid = await signAndPost(one);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ status: 'success', chainId: 1, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await usdcBalanceOn(1, TREASURY)) - before).toBe(balance);

    const refused = await signAndPost(two);
    expect(refused.status).toBe(400);
    expect(refused.body.errorCode).toBe('INSUFFICIENT_APP_FEE_BALANCE');
    const replayed = await signAndPost(one);
    expect(replayed.status).toBe(409);
    expect(replayed.body.errorCode).toBe('CLAIM_ALREADY_SIGNED');
    expect(await usdcBalanceOn(1, TREASURY)).toBe(before + balance);

    // newest first, paged with continuation
    const firstPage = await getJson(`${sim.baseUrl}/app-fees/${app.address}/claims?limit=1`);
    expect(firstPage.body.claims.map((claim: { txHash: string }) => claim.txHash)).toEqual([paid.body.txHash]);
    const secondPage = await getJson(`${sim.baseUrl}/app-fees/${app.address}/claims?limit=1&continuation=${firstPage.body.continuation}`);
    expect(secondPage.body.claims).toHaveLength(1);
    expect(secondPage.body.continuation).toBeUndefined();
  });

  it('a payment that reverts on chain (recipient blocked by the token issuer) fails the claim and gives the amount back', async () => {
    await fillWithAppFees({ originCurrency: usdc(1), destinationCurrency: usdc(8453), amount: '10000000', appFees: [{ recipient: app.address, fee: '100' }] });
    const balances = () => getJson(`${sim.baseUrl}/app-fees/${app.address}/balances`).then((response) => response.body.balances.map((b: { amount: string }) => b.amount));
    expect(await balances()).toEqual(['100000']); // 100 bps of 10 USDC
    const blocked = getAddress('0x0000000000000000000000000000000000b10c3d');
    const chain = evmChainOf(sim, 1);
    const stablecoin = chain.findCurrency(usdc(1))!;
    await chain.fixtureContracts.setBlockedByIssuer(stablecoin, blocked, true);
    try {
      const started = await postJson(`${sim.baseUrl}/app-fees/${app.address}/claim`, { chainId: 1, currency: usdc(1), recipient: blocked });
      const { sign, post } = started.body.steps[0].items[0].data;
      const signature = await privateKeyToAccount(app.privateKey).signTypedData({ domain: sign.domain, types: sign.types, primaryType: sign.primaryType, message: sign.value });
      const failed = await postJson(`${sim.baseUrl}${post.endpoint}?signature=${signature}`, post.body);
      expect(failed.status).toBe(400);
      expect(failed.body).toMatchObject({ errorCode: 'CLAIM_PAYMENT_FAILED', txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
      expect((await publicClientFor(sim, 1).getTransactionReceipt({ hash: failed.body.txHash })).status).toBe('reverted');
      expect(await usdcBalanceOn(1, blocked)).toBe(0n);
      expect(await balances()).toEqual(['100000']);
      const listed = (await getJson(`${sim.baseUrl}/app-fees/${app.address}/claims?limit=1`)).body.claims[0];
      expect(listed).toMatchObject({ status: 'failure', txHash: failed.body.txHash, recipient: blocked });
    } finally {
      await chain.fixtureContracts.setBlockedByIssuer(stablecoin, blocked, false);
    }
  });

  it('bad input is a 4xx with an errorCode', async () => {
    const bad: Array<[string, unknown, number, string]> = [
      [`/app-fees/not-a-wallet/balances`, undefined, 400, 'INVALID_ADDRESS'],
      [`/app-fees/not-a-wallet/claims`, undefined, 400, 'INVALID_ADDRESS'],
      [`/app-fees/${app.address}/claims?limit=51`, undefined, 400, 'INVALID_INPUT_PARAMS'],
      [`/app-fees/not-a-wallet/claim`, { chainId: 1, currency: usdc(1), recipient: TREASURY }, 400, 'INVALID_ADDRESS'],
      [`/app-fees/${app.address}/claim`, { chainId: 1, currency: usdc(1), recipient: 'nope' }, 400, 'INVALID_ADDRESS'],
      [`/app-fees/${app.address}/claim`, { chainId: 999, currency: usdc(1), recipient: TREASURY }, 400, 'UNSUPPORTED_CHAIN'],
      [`/app-fees/${app.address}/claim`, { chainId: 1, currency: '0x00000000000000000000000000000000000000ee', recipient: TREASURY }, 400, 'UNSUPPORTED_CURRENCY'],
      [`/app-fees/${app.address}/claim`, { chainId: 1, currency: usdc(1), recipient: TREASURY, amount: '-5' }, 400, 'INVALID_INPUT_PARAMS'],
      [`/app-fees/${app.address}/claims/0x${'ab'.repeat(32)}/signature?signature=0x${'11'.repeat(65)}`, {}, 404, 'CLAIM_NOT_FOUND'],
      [`/app-fees/${app.address}/claims/0x${'ab'.repeat(32)}/signature`, {}, 400, 'INVALID_INPUT_PARAMS'],
    ];
    for (const [path, body, status, errorCode] of bad) {
      const response = body === undefined ? await getJson(`${sim.baseUrl}${path}`) : await postJson(`${sim.baseUrl}${path}`, body);
      expect(response.status, path).toBe(status);
      expect(response.body.errorCode, path).toBe(errorCode);
      expect(response.body.message, path).toEqual(expect.any(String));
    }
  });
});
