import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc20Abi, zeroAddress } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { getJson, postJson, publicClientFor, type QuoteBody } from '../support/bridgeClient';
import { sharedTestSimulator } from '../support/sharedTestSimulator';
import { evmChainOf } from '../support/evmChainOf';

// covers: endpoint:POST /quote/v2, endpoint:GET /intents/status/v3
// covers: errorCode:INVALID_SLIPPAGE_TOLERANCE, errorCode:INVALID_ADDRESS, errorCode:INVALID_RECIPIENT
// covers: limit:slippageTolerance, latePaymentSlippageTolerance @ quote and price
//
// AMOUNT_TOO_LOW from its §7.1 cause (a dust same-chain swap) is in test/e2e/quoteErrorsFromCauses.test.ts;
// here it is the simulator's own use of the code for an amount that cannot pay a bridge's fees.

let sim: RunningSimulator;
let quoteUrl: string;
let origin: number;
let destination: number;
let user: string;

beforeAll(async () => {
  sim = await sharedTestSimulator();
  quoteUrl = `${sim.baseUrl}/quote/v2`;
  [origin, destination] = [sim.chains[0]!.id, sim.chains[1]!.id];
  user = sim.accounts[1]!.address;
});
afterAll(async () => {
  await sim?.stop();
});

function nativeQuote(overrides: Record<string, unknown> = {}): QuoteBody {
  return {
    user,
    originChainId: origin,
    destinationChainId: destination,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: '10000000000000000',
    tradeType: 'EXACT_INPUT',
    ...overrides,
  };
}

/** Posts a body and checks the error envelope: `{ errorCode, message, statusCode }` and nothing else. */
async function expectError(body: unknown, status: number, errorCode: string): Promise<string> {
  const response = await postJson(quoteUrl, body);
  expect(response.status).toBe(status);
  expect(Object.keys(response.body).sort()).toEqual(['errorCode', 'message', 'statusCode']);
  expect(response.body).toMatchObject({ errorCode, statusCode: status });
  expect(typeof response.body.message).toBe('string');
  return response.body.message as string;
}

describe('POST /quote/v2 errors', () => {
  describe('INVALID_SLIPPAGE_TOLERANCE (§7.1, §8)', () => {
    const badValues: unknown[] = ['-1', '10001', '1.5', 'abc', 5];
    for (const field of ['slippageTolerance', 'latePaymentSlippageTolerance'] as const) {
      it.each(badValues.map((value) => [JSON.stringify(value), value]))(`${field} = %s is rejected`, async (_label, value) => {
        const message = await expectError(nativeQuote({ [field]: value }), 400, 'INVALID_SLIPPAGE_TOLERANCE');
        expect(message).toBe(`${field} must be an integer string of basis points between 0 and 10000 (got ${JSON.stringify(value)})`);
      });
    }

    it('message snapshots', async () => {
      expect(await expectError(nativeQuote({ slippageTolerance: '-1' }), 400, 'INVALID_SLIPPAGE_TOLERANCE')).toMatchInlineSnapshot(`"slippageTolerance must be an integer string of basis points between 0 and 10000 (got "-1")"`);
      expect(await expectError(nativeQuote({ latePaymentSlippageTolerance: 5 }), 400, 'INVALID_SLIPPAGE_TOLERANCE')).toMatchInlineSnapshot(`"latePaymentSlippageTolerance must be an integer string of basis points between 0 and 10000 (got 5)"`);
    });

    it('is checked before anything else: an invalid slippage wins over an unsupported chain', async () => {
      await expectError(nativeQuote({ slippageTolerance: '10001', originChainId: 999_999 }), 400, 'INVALID_SLIPPAGE_TOLERANCE');
    });

    it.each(['0', '10000', '50'])('slippageTolerance %s (and the same late-payment tolerance) is accepted with 200', async (value) => {
      const response = await postJson(quoteUrl, nativeQuote({ slippageTolerance: value, latePaymentSlippageTolerance: value }));
      expect(response.status).toBe(200);
      expect(response.body.details.slippageTolerance.destination.percent).toBe(String(Number(value) / 100));
    });

    it('slippageTolerance 10000 allows the whole output to slip (minimumAmount 0); 0 allows none', async () => {
      const all = await postJson(quoteUrl, nativeQuote({ slippageTolerance: '10000' }));
      expect(all.body.details.currencyOut.minimumAmount).toBe('0');
      const none = await postJson(quoteUrl, nativeQuote({ slippageTolerance: '0' }));
      expect(none.body.details.currencyOut.minimumAmount).toBe(none.body.details.currencyOut.amount);
    });
  });

  describe('INVALID_ADDRESS and INVALID_RECIPIENT (§7.1)', () => {
    it('a recipient that is not an address', async () => {
      expect(await expectError(nativeQuote({ recipient: '0x1234' }), 400, 'INVALID_ADDRESS')).toMatchInlineSnapshot(`"recipient 0x1234 is not a valid address on chain 8453"`);
    });

    it('a recipient with a wrong checksum', async () => {
      const badChecksum = '0x70997970c51812dc3a010c7d01b50e0d17dc79C8';
      expect(await expectError(nativeQuote({ recipient: badChecksum }), 400, 'INVALID_ADDRESS')).toContain(badChecksum);
    });

    it('a user that is not an address', async () => {
      expect(await expectError(nativeQuote({ user: 'not-an-address' }), 400, 'INVALID_ADDRESS')).toMatchInlineSnapshot(`"user not-an-address is not a valid address on chain 1"`);
    });

    it("a recipient that is the destination chain's stablecoin contract", async () => {
      const stablecoin = evmChainOf(sim, destination).contractAddresses.stablecoin;
      const message = await expectError(nativeQuote({ recipient: stablecoin }), 400, 'INVALID_RECIPIENT');
      expect(message).toBe(`recipient ${stablecoin} is the USDC token contract, which cannot receive tokens`);
      expect(message.replace(stablecoin, '<stablecoin>')).toMatchInlineSnapshot(`"recipient <stablecoin> is the USDC token contract, which cannot receive tokens"`);
    });

    it("a recipient that is the destination's wrapped-native token contract, in lower case", async () => {
      const wrapped = evmChainOf(sim, destination).contractAddresses.wrappedNative.toLowerCase();
      await expectError(nativeQuote({ recipient: wrapped }), 400, 'INVALID_RECIPIENT');
    });

    it('a valid explicit recipient (another account) is accepted', async () => {
      const response = await postJson(quoteUrl, nativeQuote({ recipient: sim.accounts[2]!.address }));
      expect(response.status).toBe(200);
      expect(response.body.details.recipient).toBe(sim.accounts[2]!.address);
    });
  });

  describe('INVALID_INPUT_PARAMS (schema)', () => {
    it('a missing field', async () => {
      const { amount: _omit, ...body } = nativeQuote();
      expect(await expectError(body, 400, 'INVALID_INPUT_PARAMS')).toMatchInlineSnapshot(`"Invalid request: amount: Invalid input: expected string, received undefined"`);
    });

    it('an empty body names every required field', async () => {
      const message = await expectError({}, 400, 'INVALID_INPUT_PARAMS');
      for (const field of ['user', 'originChainId', 'destinationChainId', 'originCurrency', 'destinationCurrency', 'amount', 'tradeType']) {
        expect(message).toContain(`${field}:`);
      }
    });

    it('an unknown tradeType', async () => {
      expect(await expectError(nativeQuote({ tradeType: 'EXACT_IN' }), 400, 'INVALID_INPUT_PARAMS')).toMatchInlineSnapshot(`"Invalid request: tradeType: Invalid option: expected one of "EXACT_INPUT"|"EXPECTED_OUTPUT"|"EXACT_OUTPUT""`);
    });

    it.each(['1.5', '-1', '1e18', '', ' 1', '0x10'])('a non-integer amount %j', async (amount) => {
      const message = await expectError(nativeQuote({ amount }), 400, 'INVALID_INPUT_PARAMS');
      expect(message).toContain('amount: must be an integer string in the smallest unit');
    });

    it('an amount given as a number', async () => {
      expect(await expectError(nativeQuote({ amount: 1000 }), 400, 'INVALID_INPUT_PARAMS')).toMatchInlineSnapshot(`"Invalid request: amount: Invalid input: expected string, received number"`);
    });

    it('a chain id given as a string', async () => {
      const message = await expectError(nativeQuote({ originChainId: String(origin) }), 400, 'INVALID_INPUT_PARAMS');
      expect(message).toContain('originChainId:');
    });
  });

  describe('bodies that are not a JSON object (INVALID_JSON, INVALID_INPUT_PARAMS)', () => {
    it('a JSON body that is not an object is INVALID_INPUT_PARAMS', async () => {
      expect(await expectError([], 400, 'INVALID_INPUT_PARAMS')).toMatchInlineSnapshot(`"Invalid request: body: Invalid input: expected object, received array"`);
    });

    it('a body sent without a JSON content type is refused as such (415 UNSUPPORTED_MEDIA_TYPE), not read as "every field missing"', async () => {
      const response = await fetch(quoteUrl, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify(nativeQuote()) });
      expect(response.status).toBe(415);
      const body = (await response.json()) as { errorCode: string; message: string };
      expect(body.errorCode).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(body.message).toContain('Content-Type: application/json');
    });

    it('a malformed JSON body', async () => {
      const response = await fetch(quoteUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"user": "0x' });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchInlineSnapshot(`
        {
          "errorCode": "INVALID_JSON",
          "message": "Request body is not valid JSON",
          "statusCode": 400,
        }
      `);
    });
  });

  describe('chains, currencies and routes', () => {
    it('UNSUPPORTED_CHAIN for an unknown origin or destination chain', async () => {
      expect(await expectError(nativeQuote({ originChainId: 999_999 }), 400, 'UNSUPPORTED_CHAIN')).toMatchInlineSnapshot(`"origin chain 999999 is not supported by this simulator"`);
      expect(await expectError(nativeQuote({ destinationChainId: 999_999 }), 400, 'UNSUPPORTED_CHAIN')).toMatchInlineSnapshot(`"destination chain 999999 is not supported by this simulator"`);
    });

    it('UNSUPPORTED_CURRENCY for a token the chain does not know', async () => {
      const unknownToken = '0x000000000000000000000000000000000000dEaD';
      expect(await expectError(nativeQuote({ originCurrency: unknownToken }), 400, 'UNSUPPORTED_CURRENCY')).toMatchInlineSnapshot(`"currency 0x000000000000000000000000000000000000dEaD is not supported on chain 1"`);
      await expectError(nativeQuote({ destinationCurrency: 'usdc' }), 400, 'UNSUPPORTED_CURRENCY');
    });

    it('INSUFFICIENT_POOL_LIQUIDITY when the pool cannot give the requested output at all', async () => {
      const destinationUsdc = evmChainOf(sim, destination).contractAddresses.stablecoin;
      const everything = (10n ** 15n).toString(); // a billion USDC: more than the pool holds
      expect(await expectError(nativeQuote({ destinationCurrency: destinationUsdc, tradeType: 'EXACT_OUTPUT', amount: everything }), 400, 'INSUFFICIENT_POOL_LIQUIDITY')).toMatchInlineSnapshot(`"the USDC pool on chain 8453 cannot deliver 1000000000 USDC"`);
    });
  });

  describe('amounts the solver cannot fill', () => {
    it('SOLVER_CAPACITY_EXCEEDED for a native bridge beyond the solver\'s balance (the fill simulation runs out of funds)', async () => {
      const solverBalance = await publicClientFor(sim, destination).getBalance({ address: sim.control.solverAddress as `0x${string}` });
      const message = await expectError(nativeQuote({ amount: (solverBalance * 2n).toString() }), 400, 'SOLVER_CAPACITY_EXCEEDED');
      expect(message).toContain(`on chain ${destination}`);
      // a POST /price of the same body answers the same
      const price = await postJson(`${sim.baseUrl}/price`, nativeQuote({ amount: (solverBalance * 2n).toString() }));
      expect(price.status).toBe(400);
      expect(price.body.errorCode).toBe('SOLVER_CAPACITY_EXCEEDED');
    });

    it('SOLVER_CAPACITY_EXCEEDED for a stablecoin bridge beyond the solver\'s token balance', async () => {
      const originUsdc = evmChainOf(sim, origin).contractAddresses.stablecoin;
      const destinationUsdc = evmChainOf(sim, destination).contractAddresses.stablecoin;
      const solverUsdc = await publicClientFor(sim, destination).readContract({ address: destinationUsdc, abi: erc20Abi, functionName: 'balanceOf', args: [sim.control.solverAddress as `0x${string}`] });
      await expectError(
        nativeQuote({ originCurrency: originUsdc, destinationCurrency: destinationUsdc, tradeType: 'EXACT_OUTPUT', amount: (solverUsdc + 1n).toString() }),
        400,
        'SOLVER_CAPACITY_EXCEEDED',
      );
    });
  });

  describe('amounts too low', () => {
    it("AMOUNT_TOO_LOW for amount '1': the fees exceed it", async () => {
      expect(await expectError(nativeQuote({ amount: '1' }), 400, 'AMOUNT_TOO_LOW')).toMatchInlineSnapshot(`"amount is too low to cover the fees of this route"`);
    });

    it("AMOUNT_TOO_LOW for amount '0', for every trade type", async () => {
      for (const tradeType of ['EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT']) {
        expect(await expectError(nativeQuote({ amount: '0', tradeType }), 400, 'AMOUNT_TOO_LOW')).toBe('amount must be greater than zero');
      }
    });

    it('a rejected quote stores no request', async () => {
      const before = sim.control.requests.listByStatus('waiting').length;
      await expectError(nativeQuote({ amount: '1' }), 400, 'AMOUNT_TOO_LOW');
      await expectError(nativeQuote({ slippageTolerance: '-1' }), 400, 'INVALID_SLIPPAGE_TOLERANCE');
      expect(sim.control.requests.listByStatus('waiting')).toHaveLength(before);
    });
  });
});

describe('other routes', () => {
  it('ROUTE_NOT_FOUND 404 for an unknown route', async () => {
    const response = await getJson(`${sim.baseUrl}/no/such/route?x=1`);
    expect(response.status).toBe(404);
    expect(response.body).toMatchInlineSnapshot(`
      {
        "errorCode": "ROUTE_NOT_FOUND",
        "message": "No route GET /no/such/route",
        "statusCode": 404,
      }
    `);
  });

  it('ROUTE_NOT_FOUND 404 for a known path with a trailing slash (no document lists it); the explorer keeps its pages', async () => {
    const [chains, rules, explorer] = await Promise.all([
      getJson(`${sim.baseUrl}/chains/`),
      fetch(`${sim.baseUrl}/admin/solver/rules/`, { method: 'DELETE' }).then(async (r) => ({ status: r.status, body: await r.json() })),
      fetch(`${sim.baseUrl}/explorer/`),
    ]);
    expect([chains.status, chains.body.errorCode, rules.status, rules.body]).toEqual([404, 'ROUTE_NOT_FOUND', 404, { errorCode: 'ROUTE_NOT_FOUND', message: 'No route DELETE /admin/solver/rules/', statusCode: 404 }]);
    expect(explorer.status).toBe(200);
    expect((await getJson(`${sim.baseUrl}/chains`)).status).toBe(200);
  });

  it('ROUTE_NOT_FOUND 404 for a known path with the wrong method', async () => {
    const response = await getJson(`${sim.baseUrl}/quote/v2`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errorCode: 'ROUTE_NOT_FOUND', message: 'No route GET /quote/v2', statusCode: 404 });
  });

  it('GET /intents/status/v3: REQUEST_NOT_FOUND 404 for a well-formed unknown id', async () => {
    const unknown = `0x${'ab'.repeat(32)}`;
    const response = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${unknown}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ errorCode: 'REQUEST_NOT_FOUND', message: `No request with id ${unknown}`, statusCode: 404 });
  });

  it('GET /intents/status/v3: INVALID_INPUT_PARAMS 400 for a missing or malformed requestId', async () => {
    const missing = await getJson(`${sim.baseUrl}/intents/status/v3`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchInlineSnapshot(`
      {
        "errorCode": "INVALID_INPUT_PARAMS",
        "message": "Invalid request: query requestId: Invalid input: expected string, received undefined",
        "statusCode": 400,
      }
    `);
    const malformed = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=0x1234`);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ errorCode: 'INVALID_INPUT_PARAMS', statusCode: 400 });
    expect(malformed.body.message).toContain('requestId');
  });

  it('GET /intents/status/v3 finds a quoted request in waiting', async () => {
    const quote = await postJson(quoteUrl, nativeQuote());
    expect(quote.status).toBe(200);
    const status = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${quote.body.steps[0].requestId}`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'waiting', inTxHashes: [], txHashes: [], failReason: 'N/A', refundFailReason: 'N/A' });
  });
});
