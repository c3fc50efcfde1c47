import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroAddress } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { startTestSimulator } from '../support/startTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

/**
 * "Bad input gets a clear 4xx { errorCode, message }, never a 500": random bodies and query
 * strings, from near-valid to nonsense, against every route that takes input. Anything the
 * simulator answers with is 2xx, or 4xx with the error envelope.
 */
let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startTestSimulator();
});
afterAll(async () => {
  await sim?.stop();
});

async function expectNoServerError(response: Response, what: string): Promise<void> {
  const text = await response.text();
  expect(response.status, `${what} → ${response.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (response.status >= 400) {
    const body = JSON.parse(text) as { errorCode?: unknown; message?: unknown };
    expect(typeof body.errorCode, what).toBe('string');
    expect(typeof body.message, what).toBe('string');
  }
}

/** Mostly well-formed values (so requests get deep into quoting), sometimes nonsense. */
const amountString = fc.oneof(
  { arbitrary: fc.bigInt({ min: 10n ** 5n, max: 10n ** 19n }).map(String), weight: 3 },
  { arbitrary: fc.bigInt({ min: 10n ** 24n, max: 10n ** 40n }).map(String), weight: 3 },
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 5n }).map(String), weight: 1 },
  { arbitrary: fc.oneof(fc.string(), fc.constant('-1'), fc.constant('1e18')), weight: 1 },
);
const addressLike = () =>
  fc.oneof(
    { arbitrary: fc.constantFrom(zeroAddress, sim.accounts[0]!.address, evmChainOf(sim, sim.chains[0]!.id).contractAddresses.stablecoin, evmChainOf(sim, sim.chains[0]!.id).contractAddresses.wrappedNative), weight: 6 },
    { arbitrary: fc.oneof(fc.string(), fc.constant('0x' + 'ab'.repeat(20))), weight: 1 },
  );
const chainId = () => fc.oneof({ arbitrary: fc.constantFrom(...sim.chains.map((chain) => chain.id)), weight: 6 }, { arbitrary: fc.oneof(fc.integer(), fc.constant('1')), weight: 1 });
const anyJson = fc.jsonValue({ maxDepth: 2 });

/** A quote body: the required fields, plus at most one optional feature (valid or not). */
function quoteBody() {
  const core = fc.record({
    user: addressLike(),
    originChainId: chainId(),
    destinationChainId: chainId(),
    originCurrency: addressLike(),
    destinationCurrency: addressLike(),
    amount: amountString,
    tradeType: fc.constantFrom('EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT', 'EXACT_INPUT', 'EXACT_OUTPUT', 'exact', 3),
  });
  const option = fc.oneof(
    fc.record({ recipient: addressLike() }),
    fc.record({ slippageTolerance: fc.oneof(fc.constant('50'), fc.string(), fc.integer()) }),
    fc.record({ appFees: fc.oneof(fc.constant([{ recipient: sim.accounts[1]!.address, fee: '25' }]), anyJson) }),
    fc.record({ txs: fc.oneof(fc.constant([{ to: sim.accounts[2]!.address, value: '1', data: '0x' }]), anyJson) }),
    fc.record({ useDepositAddress: fc.oneof(fc.boolean(), anyJson), strict: fc.boolean(), refundTo: addressLike() }),
    fc.record({ topupGas: fc.oneof(fc.boolean(), anyJson), topupGasAmount: amountString }),
    fc.record({ subsidizeFees: fc.boolean(), maxSubsidizationAmount: amountString }),
    fc.record({ fixedRate: fc.oneof(fc.boolean(), anyJson) }),
    fc.record({ includeProtocolData: fc.oneof(fc.boolean(), anyJson) }),
  );
  return fc.tuple(core, fc.option(option, { nil: undefined, freq: 2 })).map(([body, extra]) => ({ ...body, ...extra }));
}

describe('no route answers 5xx to bad input', () => {
  for (const path of ['/quote/v2', '/quote', '/price']) {
    it(`POST ${path} with random bodies`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof({ arbitrary: quoteBody(), weight: 5 }, { arbitrary: anyJson, weight: 1 }), async (body) => {
          const response = await fetch(`${sim.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          await expectNoServerError(response, `POST ${path} ${JSON.stringify(body)}`);
        }),
        { numRuns: 100, seed: 42 },
      );
    });
  }

  it('GET /requests/v3, /requests/v2 and /requests with random query strings', async () => {
    const keys = fc.constantFrom('limit', 'continuation', 'term', 'status', 'failReason', 'chainId', 'originChainId', 'sortBy', 'sortDirection', 'startTimestamp', 'startBlock', 'amountUsdMin', 'features', 'filters', 'includeChildRequests', 'requestType', 'currencyInSymbol', 'apiKey', 'id', 'user');
    const values = fc.oneof(fc.string(), fc.integer().map(String), fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)), fc.constant('[{"not:status":["success","x"]}]'));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('/requests/v3', '/requests/v2', '/requests'), fc.array(fc.tuple(keys, values), { maxLength: 4 }), async (path, pairs) => {
        const query = new URLSearchParams(pairs).toString();
        const response = await fetch(`${sim.baseUrl}${path}?${query}`, { headers: { 'x-api-key': sim.apiKey } });
        await expectNoServerError(response, `GET ${path}?${query}`);
      }),
      { numRuns: 80, seed: 7 },
    );
  });

  it('admin routes, fast fill, status and signature lookups with random input', async () => {
    const requests = fc.oneof(
      anyJson.map((body) => ({ method: 'POST', path: '/admin/api-keys', body })),
      anyJson.map((body) => ({ method: 'PUT', path: `/admin/api-keys/${sim.apiKey}/webhook`, body })),
      anyJson.map((body) => ({ method: 'POST', path: '/admin/faults', body })),
      anyJson.map((body) => ({ method: 'POST', path: '/fast-fill', body })),
      anyJson.map((body) => ({ method: 'POST', path: '/transactions/index', body })),
      anyJson.map((body) => ({ method: 'POST', path: '/transactions/single', body })),
      fc.string().map((id) => ({ method: 'GET', path: `/requests/${encodeURIComponent(id)}/signature`, body: undefined })),
      fc.string().map((id) => ({ method: 'GET', path: `/intents/status/v3?requestId=${encodeURIComponent(id)}`, body: undefined })),
      fc.string().map((q) => ({ method: 'GET', path: `/admin/webhook-deliveries?${q}`, body: undefined })),
    );
    await fc.assert(
      fc.asyncProperty(requests, async ({ method, path, body }) => {
        const response = await fetch(`${sim.baseUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json', 'x-api-key': sim.apiKey },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        await expectNoServerError(response, `${method} ${path} ${JSON.stringify(body)}`);
      }),
      { numRuns: 120, seed: 11 },
    );
  });
});
