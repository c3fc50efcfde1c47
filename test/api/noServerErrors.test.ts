import { connect } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zeroAddress } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { fuzzArbitraries, sendFuzzMessages, sendFuzzRequest } from '../support/fuzzInputs';
import { OpenApiAnswerValidator, type OpenApiDocument } from '../support/openapiAnswerValidator';
import { startTestSimulator } from '../support/startTestSimulator';

/**
 * "Bad input gets a clear 4xx { errorCode, message }, never a 500": a seeded sample of random
 * requests against every route that takes input and the websocket (the long run is in
 * `npm run bench`), each answer also checked against the OpenAPI documents (hand-written inputs: a
 * generator other than test/api/openapiFuzz.test.ts's), then every input that once broke the simulator, kept as a regression.
 */
let sim: RunningSimulator;
let documents: OpenApiAnswerValidator[];
beforeAll(async () => {
  sim = await startTestSimulator({ httpRequestTimeoutMs: 1000 });
  documents = [];
  for (const path of ['/openapi.json', '/admin/openapi.json']) {
    const answer = await fetch(`${sim.baseUrl}${path}`);
    const document = (await answer.json()) as OpenApiDocument;
    if (answer.status !== 200) throw new Error(`${path} answered ${answer.status}: ${JSON.stringify(document)}`);
    documents.push(new OpenApiAnswerValidator(document, `no-server-errors${path}`));
  }
});
afterAll(async () => {
  await sim?.stop();
});

describe('no route answers 5xx to bad input (seeded fuzz sample)', () => {
  it('random requests to every input route: 2xx, or 4xx with errorCode and message, each an answer its OpenAPI document lists (another generator than the documents\' own)', async () => {
    const { httpRequest } = fuzzArbitraries(sim);
    await fc.assert(
      fc.asyncProperty(httpRequest, async (request) => {
        expect(await sendFuzzRequest(sim.baseUrl, request, documents)).toBeUndefined();
      }),
      { numRuns: 400, seed: 42 },
    );
  });

  it('random websocket messages: each answered, the socket stays open', async () => {
    const { wsMessage } = fuzzArbitraries(sim);
    await fc.assert(
      fc.asyncProperty(fc.array(wsMessage, { minLength: 1, maxLength: 8 }), async (messages) => {
        expect(await sendFuzzMessages(sim.baseUrl, messages)).toBeUndefined();
      }),
      { numRuns: 40, seed: 5 },
    );
  });
});

/** Inputs that once answered 500, or answered without an errorCode (issue 10's probe), kept forever. */
describe('regressions', () => {
  const user = () => sim.accounts[0]!.address;
  const quote = (extra: object) => ({
    user: user(),
    originChainId: sim.chains[0]!.id,
    destinationChainId: sim.chains[1]!.id,
    originCurrency: zeroAddress,
    destinationCurrency: zeroAddress,
    amount: '1000000000000000',
    tradeType: 'EXACT_INPUT',
    ...extra,
  });
  const post = async (path: string, body: string, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const response = await fetch(`${sim.baseUrl}${path}`, { method: 'POST', headers, body });
    return { status: response.status, body: (await response.json()) as { errorCode: string; message: string } };
  };
  const TWO_256 = (2n ** 256n).toString();

  it.each([
    ['/quote/v2', { amount: TWO_256 }],
    ['/quote/v2', { amount: TWO_256, tradeType: 'EXACT_OUTPUT' }],
    ['/quote', { amount: TWO_256 }],
    ['/price', { amount: TWO_256, tradeType: 'EXACT_OUTPUT' }],
    ['/quote/v2', { txs: [{ to: '0x00000000000000000000000000000000000000c1', value: TWO_256 }] }],
    ['/quote/v2', { topupGas: true, topupGasAmount: TWO_256 }],
    ['/quote/v2', { amount: '1'.repeat(100) }],
  ])('%s with an amount of 2^256 or more is 400 INVALID_INPUT_PARAMS (%j)', async (path, extra) => {
    const answer = await post(path, JSON.stringify(quote(extra)));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ errorCode: 'INVALID_INPUT_PARAMS', message: expect.stringMatching(/below 2\^256|integer string/) });
  });

  it('EXACT_OUTPUT of 2^256 - 1 native for wrapped native: the input it needs passes 2^256 - 1, a 400 SOLVER_CAPACITY_EXCEEDED, not a 500 from ABI encoding (bench fuzz, seed 1)', async () => {
    const origin = sim.chains.find((chain) => chain.id === 1)!;
    const wrapped = (await (await fetch(`${sim.baseUrl}/chains`)).json() as { chains: Array<{ id: number; erc20Currencies: Array<{ symbol: string; address: string }> }> }).chains
      .find((chain) => chain.id === origin.id)!.erc20Currencies.find((currency) => currency.symbol === 'WETH')!.address;
    for (const path of ['/price', '/quote/v2']) {
      const answer = await post(path, JSON.stringify(quote({ originChainId: 1, destinationChainId: 42161, originCurrency: wrapped, amount: (2n ** 256n - 1n).toString(), tradeType: 'EXACT_OUTPUT' })));
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatchObject({ errorCode: 'SOLVER_CAPACITY_EXCEEDED', message: expect.stringContaining('2^256 - 1') });
    }
  });

  it('compressed or non-JSON bodies are 415 with an errorCode, never inflated into a 500 or read as "every field missing"', async () => {
    const body = JSON.stringify(quote({}));
    expect(await post('/quote/v2', body, { 'content-type': 'application/json', 'content-encoding': 'gzip' })).toMatchObject({ status: 415, body: { errorCode: 'UNSUPPORTED_CONTENT_ENCODING' } });
    expect(await post('/quote/v2', body, { 'content-type': 'text/plain' })).toMatchObject({ status: 415, body: { errorCode: 'UNSUPPORTED_MEDIA_TYPE', message: expect.stringContaining('text/plain') } });
    expect(await post('/quote/v2', body, { 'content-type': 'application/json; charset=utf-8' })).toMatchObject({ status: 200 });
  });

  it('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE (it was INVALID_REQUEST, undocumented); a path that is not valid percent-encoding is a 400 (OpenAPI fuzz)', async () => {
    const large = await fetch(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(quote({ padding: 'x'.repeat(1024 * 1024) })) });
    expect(large.status).toBe(413);
    expect(await large.json()).toMatchObject({ errorCode: 'PAYLOAD_TOO_LARGE', message: 'Request body is larger than 1mb' });
    expect((await fetch(`${sim.baseUrl}/chains`)).status).toBe(200);
    for (const path of ['/app-fees/%E0%A4%A/balances', '/requests/%ZZ/signature', '/admin/api-keys/%/webhook']) {
      const answer = await fetch(`${sim.baseUrl}${path}`);
      expect(answer.status, path).toBe(400);
      expect(await answer.json(), path).toMatchObject({ errorCode: 'INVALID_INPUT_PARAMS', message: expect.stringContaining('percent-encoding') });
    }
  });

  it('a 10,000-character field is not echoed whole', async () => {
    const answer = await post('/quote/v2', JSON.stringify(quote({ recipient: 'x'.repeat(10_000) })));
    expect(answer.status).toBe(400);
    expect(answer.body.message.length).toBeLessThan(600);
    expect(answer.body.message).toMatch(/more characters\)$/);
  });

  it("quote errors name amounts in the currency's units, not smallest units called ETH", async () => {
    const answer = await post('/quote/v2', JSON.stringify(quote({ amount: (10n ** 40n).toString() })));
    expect(answer.status).toBe(400);
    expect(answer.body.message).not.toMatch(/[0-9]{25,} ETH/);
  });

  /** Sends raw bytes and reads until the server closes. */
  function raw(text: string): Promise<{ status: number; body: { errorCode?: string } }> {
    const url = new URL(sim.baseUrl);
    return new Promise((resolve, reject) => {
      let out = '';
      const socket = connect(Number(url.port), url.hostname, () => socket.write(text));
      socket.on('data', (chunk) => (out += chunk));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head, body] = out.split('\r\n\r\n');
        resolve({ status: Number(head?.split(' ')[1]), body: JSON.parse(body ?? '{}') });
      });
    });
  }

  it("Node's own answers carry an errorCode: malformed HTTP 400, oversized headers 431, a body shorter than its Content-Length 408", async () => {
    expect(await raw('GARBAGE\r\n\r\n')).toMatchObject({ status: 400, body: { errorCode: 'MALFORMED_HTTP_REQUEST' } });
    expect(await raw(`GET /chains HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`)).toMatchObject({ status: 431, body: { errorCode: 'HEADERS_TOO_LARGE' } });
    expect(await raw('POST /quote/v2 HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user":')).toMatchObject({
      status: 408,
      body: { errorCode: 'REQUEST_TIMEOUT' },
    });
  });
});
