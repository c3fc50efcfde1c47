// covers: endpoint:GET /requests/v3, endpoint:GET /requests/v2, endpoint:GET /requests, endpoint:GET /intents/status/v3
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeFunctionData, zeroAddress, type Address, type Hex } from 'viem';
import { callRecorderArtifact, wrappedNativeArtifact } from '../../fixtures/contracts/artifacts.generated';
import type { RunningSimulator } from '../../src/simulator';
import { executeQuoteSteps, getJson, nativeBridgeBody, postJson, requestJson, waitForSettledStatus, type QuoteBody } from '../support/bridgeClient';
import { evmChainOf } from '../support/evmChainOf';
import { expectPublishedRecord, expectPublishedType } from '../support/publishedApiTypes';
import { quoteAndDepositNative } from '../support/quoteAndDepositNative';
import { startTestSimulator } from '../support/startTestSimulator';
import { blockOnStablecoin, deployCallRecorder, freshAddresses, quoteAndExecute, sendFrom, SWAP_TEST_CHAINS } from '../support/swapClient';

/**
 * Issue 28: a client that parses the simulator's answers with JSON Schemas generated from the
 * service's published API types (test/publishedApi) accepts every one of them — each request type,
 * success, refund and failure records, every listing and status version, and the look-ups. The
 * places where the SPEC and the published types disagree are in docs/divergences.md; none of them
 * makes an answer fail these schemas.
 */
/** The paths (`a.b[].c`) where `value` holds null. */
function nullPaths(value: unknown, path = '', found = new Set<string>()): Set<string> {
  if (value === null) found.add(path);
  else if (Array.isArray(value)) value.forEach((item) => nullPaths(item, `${path}[]`, found));
  else if (typeof value === 'object') for (const [key, item] of Object.entries(value as object)) nullPaths(item, path ? `${path}.${key}` : key, found);
  return found;
}

/**
 * Where a record may hold null: the fields SPEC §2.3 types with null, "any" (`stateChanges`), and
 * the fields past its tables that the published types make nullable (`refundCurrencyData`,
 * `protocol`, the authenticated `platformFee.integratorFee*`).
 */
const RECORD_NULLS_ALLOWED = new Set([
  'sender', 'refundTo', 'supersededByRequestId', 'depositAddress', 'depositAddress.depositor', 'depositAddress.depositTxHash', 'depositAddress.recoveryAddress',
  'data.failReason', 'data.refundFailReason', 'data.timeEstimate', 'data.triggeredByFastFill', 'data.inTxs[].stateChanges', 'data.outTxs[].stateChanges',
  'data.refundCurrencyData', 'protocol', 'data.platformFee.integratorFee', 'data.platformFee.integratorFeeRecipient',
]);

describe('every answer is a value of the published API types', () => {
  let sim: RunningSimulator;
  const { ORIGIN, DESTINATION } = SWAP_TEST_CHAINS;
  const recipient = freshAddresses(0xe280);
  const requestIds = new Map<string, Hex>();
  const usdcOn = (chainId: number) => evmChainOf(sim, chainId).contractAddresses.stablecoin;

  async function quoted(label: string, body: QuoteBody): Promise<{ requestId: Hex; quote: any }> {
    const answer = await postJson(`${sim.baseUrl}/quote/v2`, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expectPublishedType('QuoteV2', answer.body, `${label}: POST /quote/v2`);
    // SPEC §2.2 types nothing with null (a quote without a deposit address says "")
    expect([...nullPaths(answer.body)], label).toEqual([]);
    const requestId = answer.body.steps.at(-1).requestId as Hex;
    requestIds.set(label, requestId);
    return { requestId, quote: answer.body };
  }

  async function executed(label: string, account: number, body: Partial<QuoteBody>, expected = 'success'): Promise<Hex> {
    const user = sim.accounts[account]!;
    const { requestId, status } = await quoteAndExecute(sim, user.privateKey, { user: user.address, recipient: recipient(), ...body } as QuoteBody, async (quote) => {
      expectPublishedType('QuoteV2', quote, `${label}: POST /quote/v2`);
      expect([...nullPaths(quote)], label).toEqual([]);
    });
    expect(status.status, label).toBe(expected);
    requestIds.set(label, requestId);
    return requestId;
  }

  beforeAll(async () => {
    // before 2026-11-24, when GET /requests/v2 and GET /requests retire (SPEC §9)
    sim = await startTestSimulator({ clockStartMs: Date.UTC(2026, 10, 1) });
    const native = zeroAddress;
    const user = (index: number) => sim.accounts[index]!;
    // success records, one per request type (SPEC §1.2)
    await executed('Bridge', 1, { originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: native, destinationCurrency: native, amount: '10000000000000000', tradeType: 'EXACT_INPUT' });
    await executed('Crosschain Swap', 1, { originChainId: ORIGIN, destinationChainId: DESTINATION, originCurrency: native, destinationCurrency: usdcOn(DESTINATION), amount: '50000000000000000', tradeType: 'EXACT_INPUT' });
    await executed('Same-chain Swap', 2, { originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: native, destinationCurrency: usdcOn(ORIGIN), amount: '120000000', tradeType: 'EXACT_OUTPUT' });
    await executed('Send', 2, { originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: usdcOn(ORIGIN), destinationCurrency: usdcOn(ORIGIN), amount: '5000000', tradeType: 'EXACT_INPUT' });
    const wrapped = evmChainOf(sim, ORIGIN).contractAddresses.wrappedNative;
    await executed('Wrap', 3, { originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: native, destinationCurrency: wrapped, amount: '20000000000000000', tradeType: 'EXACT_INPUT' });
    await sendFrom(sim, ORIGIN, user(3).privateKey, { to: wrapped, data: encodeFunctionData({ abi: wrappedNativeArtifact.abi, functionName: 'deposit' }), value: 10n ** 17n });
    await executed('Unwrap', 3, { originChainId: ORIGIN, destinationChainId: ORIGIN, originCurrency: wrapped, destinationCurrency: native, amount: '10000000000000000', tradeType: 'EXACT_INPUT' });
    const recorder = await deployCallRecorder(sim, DESTINATION, user(4).privateKey);
    const callValue = 3_000_000_000_000_000n;
    await executed('Call', 4, {
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: native,
      destinationCurrency: native,
      amount: callValue.toString(),
      tradeType: 'EXACT_OUTPUT',
      txs: [{ to: recorder, value: callValue.toString(), data: encodeFunctionData({ abi: callRecorderArtifact.abi, functionName: 'record', args: [7n] }) }],
    });
    // app fees and a sponsored quote: the records' appFees and feeSponsorship objects
    await executed('app fees', 5, {
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: usdcOn(ORIGIN),
      destinationCurrency: usdcOn(DESTINATION),
      amount: '100000000',
      tradeType: 'EXACT_INPUT',
      appFees: [{ recipient: user(6).address, fee: '100' }],
    });
    await executed('sponsored', 5, { ...nativeBridgeBody(user(5).address, { originChainId: ORIGIN, destinationChainId: DESTINATION }), subsidizeFees: true, sponsoredFeeComponents: ['execution'] });

    // a refund: the solver fails the request, then pays the deposit back (SPEC §3)
    sim.control.solver.addRule({ action: { kind: 'fail', failReason: 'SOLVER_CAPACITY_EXCEEDED' } });
    const refunded = await quoteAndDepositNative(sim, 6, { origin: ORIGIN, destination: DESTINATION });
    sim.control.solver.clearRules();
    requestIds.set('refund', refunded.requestId);

    // a failure with a failed fill on chain: the fill's transfer reverts, so does the refund's
    const failing = user(7);
    const failRecipient = recipient();
    const { requestId: failedId, quote: failedQuote } = await quoted('failure', {
      user: failing.address,
      recipient: failRecipient,
      originChainId: ORIGIN,
      destinationChainId: DESTINATION,
      originCurrency: usdcOn(ORIGIN),
      destinationCurrency: usdcOn(DESTINATION),
      amount: '20000000',
      tradeType: 'EXACT_INPUT',
    });
    sim.control.solver.setPolicy('hold');
    await executeQuoteSteps(sim, failing.privateKey as Hex, failedQuote);
    await evmChainOf(sim, ORIGIN).syncNow();
    await sim.control.solver.idle();
    await blockOnStablecoin(sim, DESTINATION, failRecipient as Address);
    await blockOnStablecoin(sim, ORIGIN, failing.address as Address);
    sim.control.solver.setPolicy('fill');
    expect((await waitForSettledStatus(sim.baseUrl, failedId)).status).toBe('failure');
    await sim.control.solver.idle();

    // still waiting: a quote never paid, and a deposit-address quote
    await quoted('waiting', nativeBridgeBody(user(8).address, { originChainId: ORIGIN, destinationChainId: DESTINATION }));
    await quoted('deposit address', nativeBridgeBody(user(8).address, { originChainId: ORIGIN, destinationChainId: DESTINATION, useDepositAddress: true }));
  });
  afterAll(async () => {
    sim?.control.solver.setPolicy('fill');
    await sim?.stop();
  });

  it('the records made: each request type, success, refund, failure (with a failed fill) and waiting', () => {
    const outcomes = [...requestIds].map(([label, id]) => {
      const record = sim.control.requests.get(id)!;
      return [label, record.status, record.quote.requestType, record.failedTxHash !== null, record.appFees !== null, record.feeSponsorship !== null];
    });
    expect(outcomes).toEqual([
      ['Bridge', 'success', 'Bridge', false, false, false],
      ['Crosschain Swap', 'success', 'Crosschain Swap', false, false, false],
      ['Same-chain Swap', 'success', 'Same-chain Swap', false, false, false],
      ['Send', 'success', 'Send', false, false, false],
      ['Wrap', 'success', 'Wrap', false, false, false],
      ['Unwrap', 'success', 'Unwrap', false, false, false],
      ['Call', 'success', 'Call', false, false, false],
      ['app fees', 'success', 'Bridge', false, true, false],
      ['sponsored', 'success', 'Bridge', false, false, true],
      ['refund', 'refund', 'Bridge', false, false, false],
      ['failure', 'failure', 'Bridge', true, false, false],
      ['waiting', 'waiting', 'Bridge', false, false, false],
      ['deposit address', 'waiting', 'Bridge', false, false, false],
    ]);
  });

  it('GET /requests/v3 (with and without the authenticated fields), /requests/v2 and /requests: every record of every page', async () => {
    const headers = { 'x-api-key': sim.apiKey };
    for (const [path, route, queries] of [
      ['/requests/v3', 'RequestsV3', ['limit=5', 'limit=50&includeAuthenticatedData=true']],
      ['/requests/v2', 'RequestsV2', ['limit=5']],
      ['/requests', 'RequestsV1', ['limit=5']],
    ] as const) {
      for (const query of queries) {
        const seen: string[] = [];
        let continuation: string | undefined;
        do {
          const page = await requestJson(`${sim.baseUrl}${path}?${query}${continuation ? `&continuation=${continuation}` : ''}`, { method: 'GET', headers });
          expect(page.status, JSON.stringify(page.body)).toBe(200);
          expectPublishedType(route, page.body, `GET ${path}?${query}`);
          seen.push(...page.body.requests.map((request: { id: string }) => request.id));
          continuation = page.body.continuation ?? undefined;
        } while (continuation);
        expect(new Set(seen), `${path}?${query}`).toEqual(new Set(requestIds.values()));
      }
    }
  });

  it('each record alone (GET /requests/v3?id=…): null only where §2.3 says null, the fields it types without null absent when they have no value', async () => {
    for (const [label, id] of requestIds) {
      const record = await expectPublishedRecord(sim, id, label);
      expect([...nullPaths(record)].filter((path) => !RECORD_NULLS_ALLOWED.has(path)), label).toEqual([]);
      const withoutValue = ['failedTxHash', 'failedTxBlockNumber', 'failedCallData', 'appFees', 'feeSponsorship'].filter((field) => !(field in record.data));
      const stored = sim.control.requests.get(id)!;
      const expectedAbsent = [
        ...(stored.failedTxHash === null ? ['failedTxHash', 'failedTxBlockNumber'] : []),
        ...(stored.failedCallData === null ? ['failedCallData'] : []),
        ...(stored.appFees === null ? ['appFees'] : []),
        ...(stored.feeSponsorship === null ? ['feeSponsorship'] : []),
      ];
      expect(withoutValue, label).toEqual(expectedAbsent);
    }
  });

  it('GET /intents/status (v1, v2, v3) and the signature look-ups (v1, v2) of every request', async () => {
    for (const [label, id] of requestIds) {
      for (const [path, route] of [
        ['/intents/status', 'StatusV1'],
        ['/intents/status/v2', 'StatusV2'],
        ['/intents/status/v3', 'StatusV3'],
      ] as const) {
        const answer = await getJson(`${sim.baseUrl}${path}?requestId=${id}`);
        expect(answer.status).toBe(200);
        expectPublishedType(route, answer.body, `${label}: GET ${path}`);
        // SPEC §2.4: details is the only field null when it has nothing to say
        expect([...nullPaths(answer.body)].filter((field) => field !== 'details'), `${label}: GET ${path}`).toEqual([]);
      }
      for (const [path, route] of [
        [`/requests/${id}/signature`, 'Signature'],
        [`/requests/${id}/signature/v2`, 'SignatureV2'],
      ] as const) {
        const answer = await getJson(`${sim.baseUrl}${path}`);
        expect(answer.status, `${label}: ${path} ${JSON.stringify(answer.body)}`).toBe(200);
        expectPublishedType(route, answer.body, `${label}: GET ${path}`);
        expect([...nullPaths(answer.body)], `${label}: GET ${path}`).toEqual([]);
      }
    }
  });

  it('the older quote and the price (POST /quote, POST /price) of each request type', async () => {
    const user = sim.accounts[9]!.address;
    const bodies = [
      nativeBridgeBody(user, { originChainId: ORIGIN, destinationChainId: DESTINATION }),
      nativeBridgeBody(user, { originChainId: ORIGIN, destinationChainId: DESTINATION, destinationCurrency: usdcOn(DESTINATION) }),
      nativeBridgeBody(user, { originChainId: ORIGIN, destinationChainId: ORIGIN, destinationCurrency: usdcOn(ORIGIN), amount: '50000000000000000' }),
      nativeBridgeBody(user, { originChainId: ORIGIN, destinationChainId: ORIGIN, recipient: recipient() }),
      nativeBridgeBody(user, { originChainId: ORIGIN, destinationChainId: ORIGIN, destinationCurrency: evmChainOf(sim, ORIGIN).contractAddresses.wrappedNative }),
    ];
    for (const body of bodies) {
      const older = await postJson(`${sim.baseUrl}/quote`, body);
      expect(older.status, JSON.stringify(older.body)).toBe(200);
      expectPublishedType('QuoteV1', older.body, `POST /quote ${JSON.stringify(body)}`);
      const price = await postJson(`${sim.baseUrl}/price`, body);
      expect(price.status, JSON.stringify(price.body)).toBe(200);
      expectPublishedType('Price', price.body, `POST /price ${JSON.stringify(body)}`);
    }
  });

  it('the look-ups: chains, liquidity, health, config, currencies, token prices, swap sources, app fee balances, reindex', async () => {
    const usdc = usdcOn(ORIGIN);
    const depositAddress = sim.control.requests.get(requestIds.get('deposit address')!)!.depositAddress!.address;
    const gets = [
      ['/chains', 'Chains'],
      [`/chains/liquidity?chainId=${ORIGIN}`, 'ChainsLiquidity'],
      ['/chains/health', 'ChainsHealth'],
      [`/config?originChainId=${ORIGIN}&destinationChainId=${DESTINATION}&user=${sim.accounts[1]!.address}`, 'Config'],
      [`/config/v2?originChainId=${ORIGIN}&destinationChainId=${DESTINATION}&currency=usdc`, 'ConfigV2'],
      [`/currencies/token/price?chainId=${ORIGIN}&address=${usdc}`, 'TokenPrice'],
      [`/currencies/token/price/v2?chainId=${ORIGIN}&address=${zeroAddress}`, 'TokenPriceV2'],
      [`/swap-sources?chainId=${ORIGIN}`, 'SwapSources'],
      [`/app-fees/${sim.accounts[6]!.address}/balances`, 'AppFeeBalances'],
      [`/app-fees/${sim.accounts[6]!.address}/claims`, 'AppFeeClaims'],
    ] as const;
    for (const [path, route] of gets) {
      const answer = await getJson(`${sim.baseUrl}${path}`);
      expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
      expectPublishedType(route, answer.body, `GET ${path}`);
      expect([...nullPaths(answer.body)], `GET ${path}`).toEqual([]);
    }
    const posts = [
      ['/currencies/v1', {}, 'CurrenciesV1'],
      ['/currencies/v2', { chainIds: [ORIGIN] }, 'CurrenciesV2'],
      ['/transactions/deposit-address/reindex', { chainId: ORIGIN, depositAddress }, 'DepositAddressReindex'],
    ] as const;
    for (const [path, body, route] of posts) {
      const answer = await postJson(`${sim.baseUrl}${path}`, body);
      expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBe(200);
      expectPublishedType(route, answer.body, `POST ${path}`);
    }
  });
});
