import fc from 'fast-check';
import { zeroAddress } from 'viem';
import WebSocket from 'ws';
import type { RunningSimulator } from '../../src/simulator';
import { evmChainOf } from './evmChainOf';
import type { OpenApiAnswerValidator } from './openapiAnswerValidator';

/**
 * Random HTTP requests against every route that takes input, from near-valid (so they get deep
 * into quoting) to nonsense, and the check that the answer is 2xx or a 4xx with the error
 * envelope. Shared by the seeded sample in `npm test` (test/api/noServerErrors.test.ts) and the
 * long run in `npm run bench` (scripts/bench/fuzz.ts).
 */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** What an answer broke, or undefined when it is fine (2xx, or 4xx with errorCode and message). */
export function serverErrorIn(status: number, text: string): string | undefined {
  if (status >= 500) return `status ${status}: ${text.slice(0, 300)}`;
  if (status < 400) return undefined;
  try {
    const body = JSON.parse(text) as { errorCode?: unknown; message?: unknown };
    if (typeof body.errorCode !== 'string' || typeof body.message !== 'string') return `status ${status} without errorCode/message: ${text.slice(0, 300)}`;
  } catch {
    return `status ${status} with a body that is not JSON: ${text.slice(0, 300)}`;
  }
  return undefined;
}

const UINT256_LIMIT = 2n ** 256n;

/** Mostly well-formed amounts, and the edges that once gave 500s (≥ 2^256, huge digit strings). */
export const amountString = fc.oneof(
  { arbitrary: fc.bigInt({ min: 10n ** 5n, max: 10n ** 19n }).map(String), weight: 3 },
  { arbitrary: fc.bigInt({ min: 10n ** 24n, max: 10n ** 40n }).map(String), weight: 2 },
  { arbitrary: fc.bigInt({ min: UINT256_LIMIT - 10n, max: UINT256_LIMIT + 10n }).map(String), weight: 1 },
  { arbitrary: fc.bigInt({ min: 10n ** 77n, max: 10n ** 100n }).map(String), weight: 1 },
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 5n }).map(String), weight: 1 },
  { arbitrary: fc.oneof(fc.string(), fc.constant('-1'), fc.constant('1e18'), fc.constant('9'.repeat(10_000))), weight: 1 },
);

export const anyJson = fc.jsonValue({ maxDepth: 2 });

export function fuzzArbitraries(sim: RunningSimulator) {
  const first = evmChainOf(sim, sim.chains[0]!.id).contractAddresses;
  const addressLike = fc.oneof(
    { arbitrary: fc.constantFrom(zeroAddress, sim.accounts[0]!.address, first.stablecoin, first.wrappedNative), weight: 6 },
    { arbitrary: fc.oneof(fc.string(), fc.constant('0x' + 'ab'.repeat(20)), fc.constant('x'.repeat(10_000))), weight: 1 },
  );
  const chainId = fc.oneof({ arbitrary: fc.constantFrom(...sim.chains.map((chain) => chain.id)), weight: 6 }, { arbitrary: fc.oneof(fc.integer(), fc.constant('1'), fc.double()), weight: 1 });
  const core = fc.record({
    user: addressLike,
    originChainId: chainId,
    destinationChainId: chainId,
    originCurrency: addressLike,
    destinationCurrency: addressLike,
    amount: amountString,
    tradeType: fc.constantFrom('EXACT_INPUT', 'EXPECTED_OUTPUT', 'EXACT_OUTPUT', 'EXACT_INPUT', 'EXACT_OUTPUT', 'exact', 3),
  });
  const option = fc.oneof(
    fc.record({ recipient: addressLike }),
    fc.record({ slippageTolerance: fc.oneof(fc.constant('50'), fc.string(), fc.integer()) }),
    fc.record({ appFees: fc.oneof(fc.constant([{ recipient: sim.accounts[1]!.address, fee: '25' }]), anyJson) }),
    fc.record({ txs: fc.oneof(fc.record({ to: addressLike, value: amountString, data: fc.constantFrom('0x', '0x1234', 'zz') }).map((call) => [call]), anyJson) }),
    fc.record({ useDepositAddress: fc.oneof(fc.boolean(), anyJson), strict: fc.boolean(), refundTo: addressLike }),
    fc.record({ topupGas: fc.oneof(fc.boolean(), anyJson), topupGasAmount: amountString }),
    fc.record({ subsidizeFees: fc.boolean(), maxSubsidizationAmount: amountString }),
    fc.record({ fixedRate: fc.oneof(fc.boolean(), anyJson) }),
    fc.record({ includeProtocolData: fc.oneof(fc.boolean(), anyJson) }),
  );
  const quoteBody = fc.tuple(core, fc.option(option, { nil: undefined, freq: 2 })).map(([body, extra]) => ({ ...body, ...extra }));
  const json = { 'content-type': 'application/json', 'x-api-key': sim.apiKey };

  const quoteRequest: fc.Arbitrary<FuzzRequest> = fc
    .tuple(fc.constantFrom('/quote/v2', '/quote', '/price'), fc.oneof({ arbitrary: quoteBody, weight: 5 }, { arbitrary: anyJson, weight: 1 }))
    .map(([path, body]) => ({ method: 'POST', path, headers: json, body: JSON.stringify(body) }));

  const listingKeys = fc.constantFrom('limit', 'continuation', 'term', 'status', 'failReason', 'chainId', 'originChainId', 'sortBy', 'sortDirection', 'startTimestamp', 'startBlock', 'amountUsdMin', 'features', 'filters', 'includeChildRequests', 'requestType', 'currencyInSymbol', 'apiKey', 'id', 'user');
  const listingValues = fc.oneof(fc.string(), fc.integer().map(String), anyJson.map((v) => JSON.stringify(v)), fc.constant('[{"not:status":["success","x"]}]'), fc.constant('9'.repeat(400)));
  const listingRequest: fc.Arbitrary<FuzzRequest> = fc
    .tuple(fc.constantFrom('/requests/v3', '/requests/v2', '/requests'), fc.array(fc.tuple(listingKeys, listingValues), { maxLength: 4 }))
    .map(([path, pairs]) => ({ method: 'GET', path: `${path}?${new URLSearchParams(pairs).toString()}`, headers: { 'x-api-key': sim.apiKey }, body: undefined }));

  const withBody = (method: string, path: string) => anyJson.map((body): FuzzRequest => ({ method, path, headers: json, body: JSON.stringify(body) }));
  const solverRule = fc.record({
    match: fc.oneof(fc.constant({}), fc.record({ originChainId: chainId }), anyJson),
    action: fc.oneof(fc.constantFrom({ kind: 'never' }, { kind: 'fill' }, { kind: 'delay', seconds: -1 }, { kind: 'fail', failReason: 'NOPE' }), anyJson),
    probability: fc.oneof(fc.double(), fc.constant(0.5)),
  });
  const otherRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
    withBody('POST', '/admin/api-keys'),
    withBody('PUT', `/admin/api-keys/${sim.apiKey}/webhook`),
    withBody('POST', '/admin/faults'),
    // the control plane: bodies that are mostly wrong, on chains that exist and ones that do not
    fc.tuple(fc.constantFrom('mine', 'automine', 'interval-mining', 'reorg', 'snapshot', 'revert'), fc.constantFrom('1', '8453', '10', 'x', '-1', '1e3', '99999999999999999999'), anyJson).map(
      ([action, chain, body]): FuzzRequest => ({ method: 'POST', path: `/admin/chains/${chain}/${action}`, headers: json, body: JSON.stringify(action === 'automine' ? { enabled: true } : body) }),
    ),
    fc.oneof(anyJson, fc.record({ seconds: fc.oneof(fc.double(), fc.integer(), fc.string()) })).map((body): FuzzRequest => ({ method: 'POST', path: '/admin/clock/advance', headers: json, body: JSON.stringify(body) })),
    fc.string().map((id): FuzzRequest => ({ method: 'POST', path: '/admin/chains/1/revert', headers: json, body: JSON.stringify({ id: `0x${id.replace(/[^0-9a-f]/g, '') || 'ff'}` }) })),
    // rules are added and taken away at once (DELETE below), so the solver keeps filling for other tests
    solverRule.map((rule): FuzzRequest => ({ method: 'POST', path: '/admin/solver/rules?fuzz=1', headers: json, body: JSON.stringify({ ...rule, times: 1, match: { requestId: `0x${'fe'.repeat(32)}` } }) })),
    fc.string().map((id): FuzzRequest => ({ method: 'DELETE', path: `/admin/solver/rules/${encodeURIComponent(id)}`, headers: json, body: undefined })),
    withBody('POST', '/fast-fill'),
    // gasless execution: bodies near-valid and not (a call that simulates fine is really relayed, naming no request)
    withBody('POST', '/execute'),
    fc
      .record({
        chainId: fc.oneof(chainId, fc.constantFrom(1, 8453)),
        to: addressLike,
        data: fc.constantFrom('0x', '0x12', '0xdeadbeef', 'nothex'),
        value: fc.oneof(fc.constantFrom('0', '1', '1'.repeat(90), '-1'), fc.string()),
        authorizationList: fc.option(fc.array(anyJson, { maxLength: 2 }), { nil: undefined }),
      })
      .map((data): FuzzRequest => ({ method: 'POST', path: '/execute', headers: json, body: JSON.stringify({ executionKind: 'rawCalls', data, executionOptions: { referrer: 'fuzz', subsidizeFees: false } }) })),
    fc.tuple(fc.string(), anyJson).map(([signature, body]): FuzzRequest => ({ method: 'POST', path: `/execute/permits?signature=${encodeURIComponent(signature)}`, headers: json, body: JSON.stringify(body) })),
    fc.tuple(fc.string(), anyJson).map(([key, body]): FuzzRequest => ({ method: 'PUT', path: `/admin/sponsor-balances/${encodeURIComponent(key)}`, headers: json, body: JSON.stringify(body) })),
    withBody('POST', '/transactions/index'),
    withBody('POST', '/transactions/single'),
    fc.string().map((id): FuzzRequest => ({ method: 'GET', path: `/requests/${encodeURIComponent(id)}/signature`, headers: {}, body: undefined })),
    // the look-ups (issue 14 part 5): bodies and query strings near-valid and not
    fc.tuple(fc.constantFrom('/currencies/v1', '/currencies/v2'), fc.oneof(fc.record({ term: fc.string(), chainIds: fc.array(chainId, { maxLength: 3 }), address: addressLike, limit: fc.oneof(fc.integer(), fc.double()), verified: fc.boolean(), includeAllChains: fc.boolean(), tokens: fc.array(fc.string(), { maxLength: 2 }) }, { requiredKeys: [] }), anyJson)).map(
      ([path, body]): FuzzRequest => ({ method: 'POST', path, headers: json, body: JSON.stringify(body) }),
    ),
    withBody('POST', '/transactions/deposit-address/reindex'),
    fc.record({ chainId, depositAddress: addressLike, targetChainId: fc.option(chainId, { nil: undefined }), currency: fc.option(addressLike, { nil: undefined }) }).map(
      (body): FuzzRequest => ({ method: 'POST', path: '/transactions/deposit-address/reindex', headers: json, body: JSON.stringify(body) }),
    ),
    fc
      .tuple(
        fc.constantFrom('/currencies/token/price', '/currencies/token/price/v2', '/swap-sources', '/chains/liquidity', '/chains/health', '/config', '/config/v2'),
        fc.array(fc.tuple(fc.constantFrom('chainId', 'address', 'originChainId', 'destinationChainId', 'user', 'currency'), fc.oneof(chainId.map(String), addressLike, fc.constantFrom('usdc', 'eth', 'pol')).map(String)), { maxLength: 4 }),
      )
      .map(([path, pairs]): FuzzRequest => ({ method: 'GET', path: `${path}?${new URLSearchParams(pairs).toString()}`, headers: {}, body: undefined })),
    fc.string().map((id): FuzzRequest => ({ method: 'GET', path: `/requests/${encodeURIComponent(id)}/signature/v2`, headers: {}, body: undefined })),
    fc.string().map((id): FuzzRequest => ({ method: 'GET', path: `/intents/status/v3?requestId=${encodeURIComponent(id)}`, headers: {}, body: undefined })),
    fc.string().map((q): FuzzRequest => ({ method: 'GET', path: `/admin/webhook-deliveries?${q}`, headers: {}, body: undefined })),
    fc.string().map((id): FuzzRequest => ({ method: 'GET', path: `/admin/explorer/requests/${encodeURIComponent(id)}`, headers: {}, body: undefined })),
    // app fees and authorize (issue 14 parts 3 and 4): near-valid bodies, wallets and signatures, and not
    withBody('POST', '/authorize'),
    fc
      .tuple(
        fc.record(
          { requestId: fc.constantFrom(`0x${'fe'.repeat(32)}`, 'x'), wallet: addressLike, depositor: addressLike, nonce: fc.oneof(amountString, fc.integer(), fc.double()), signature: fc.oneof(fc.string(), fc.constant(`0x${'ab'.repeat(65)}`)) },
          { requiredKeys: [] },
        ),
        fc.oneof(fc.constant(''), fc.string().map((sig) => `?signature=${encodeURIComponent(sig)}`), fc.constant(`?signature=0x${'cd'.repeat(65)}`)),
      )
      .map(([body, query]): FuzzRequest => ({ method: 'POST', path: `/authorize${query}`, headers: json, body: JSON.stringify(body) })),
    fc
      .tuple(addressLike, fc.constantFrom('balances', 'claims', 'claims?limit=0', 'claims?limit=50&continuation=3', 'claims?continuation=x'))
      .map(([wallet, tail]): FuzzRequest => ({ method: 'GET', path: `/app-fees/${encodeURIComponent(wallet)}/${tail}`, headers: {}, body: undefined })),
    fc
      .tuple(addressLike, fc.oneof(fc.record({ chainId, currency: addressLike, recipient: addressLike, amount: amountString }, { requiredKeys: [] }), anyJson))
      .map(([wallet, body]): FuzzRequest => ({ method: 'POST', path: `/app-fees/${encodeURIComponent(wallet)}/claim`, headers: json, body: JSON.stringify(body) })),
    fc
      .tuple(addressLike, fc.oneof(fc.string(), fc.constant(`0x${'ab'.repeat(32)}`)), fc.oneof(fc.string(), fc.constant(`0x${'ab'.repeat(65)}`)), anyJson)
      .map(([wallet, claimId, sig, body]): FuzzRequest => ({
        method: 'POST',
        path: `/app-fees/${encodeURIComponent(wallet)}/claims/${encodeURIComponent(claimId)}/signature?signature=${encodeURIComponent(sig)}`,
        headers: json,
        body: JSON.stringify(body),
      })),
    // wrong content types and encodings (once 500s or misleading field lists)
    fc.tuple(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', '', 'application/json; charset=utf-16'), fc.constantFrom('gzip', 'deflate', 'br', 'identity')).map(
      ([type, encoding]): FuzzRequest => ({ method: 'POST', path: '/quote/v2', headers: { ...(type ? { 'content-type': type } : {}), 'content-encoding': encoding }, body: '{"user":"0x"}' }),
    ),
  );
  const httpRequest = fc.oneof({ arbitrary: quoteRequest, weight: 5 }, { arbitrary: listingRequest, weight: 2 }, { arbitrary: otherRequest, weight: 3 });

  const wsMessage = fc.oneof(
    fc.string(),
    anyJson.map((v) => JSON.stringify(v)),
    fc.record({ type: fc.constantFrom('subscribe', 'unsubscribe', 'publish'), event: fc.constantFrom('request.status.updated', 'x'), filters: fc.oneof(fc.record({ id: fc.string() }), anyJson) }).map((m) => JSON.stringify(m)),
  );
  return { httpRequest, wsMessage };
}

/**
 * Sends one request; returns what it broke, or undefined. With `documents` (the validators of `GET
 * /openapi.json` and `/admin/openapi.json`), the answer must also be one its operation documents:
 * these requests are a generator of their own, apart from the documents' (test/support/openApiFuzz.ts).
 */
export async function sendFuzzRequest(baseUrl: string, request: FuzzRequest, documents: readonly OpenApiAnswerValidator[] = []): Promise<string | undefined> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  const text = await response.text();
  const broken = serverErrorIn(response.status, text) ?? documentProblemsOf(documents, { method: request.method, url: `${baseUrl}${request.path}`, status: response.status, text });
  return broken === undefined ? undefined : `${request.method} ${request.path} ${(request.body ?? '').slice(0, 600)} → ${broken}`;
}

function documentProblemsOf(documents: readonly OpenApiAnswerValidator[], answer: { method: string; url: string; status: number; text: string }): string | undefined {
  if (documents.length === 0) return undefined;
  const json: unknown = answer.text.length === 0 ? undefined : JSON.parse(answer.text);
  const document = documents.find((validator) => validator.operationOf(answer.method, answer.url));
  if (!document) return answer.status === 404 && (json as { errorCode?: string }).errorCode === 'ROUTE_NOT_FOUND' ? undefined : `an operation of no document answered ${answer.status}`;
  const { problems } = document.verdict({ method: answer.method, url: answer.url, status: answer.status, json });
  return problems.length === 0 ? undefined : problems.join('\n');
}

/** Sends websocket messages on one connection; every answer must be JSON and the socket must stay open. */
export async function sendFuzzMessages(baseUrl: string, messages: readonly string[]): Promise<string | undefined> {
  const socket = new WebSocket(`${baseUrl.replace('http://', 'ws://')}/ws`);
  const answers: unknown[] = [];
  socket.on('message', (data) => answers.push(JSON.parse(String(data))));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  for (const message of messages) socket.send(message);
  // every message gets one answer (ack or error) after the greeting
  const deadline = Date.now() + 5_000;
  while (answers.length < messages.length + 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  const open = socket.readyState === WebSocket.OPEN;
  socket.close();
  if (!open) return `socket closed after ${JSON.stringify(messages).slice(0, 300)}`;
  if (answers.length < messages.length + 1) return `${messages.length + 1 - answers.length} messages got no answer: ${JSON.stringify(messages).slice(0, 300)}`;
  return undefined;
}
