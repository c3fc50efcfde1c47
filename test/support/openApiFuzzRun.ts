import fc from 'fast-check';
import { zeroAddress } from 'viem';
import type { RunningSimulator } from '../../src/simulator';
import { evmChainOf } from './evmChainOf';
import { OpenApiAnswerValidator, type OpenApiDocument } from './openapiAnswerValidator';
import { SchemaArbitraries, operationsOf, type FuzzCase, type FuzzHints } from './openApiFuzz';

export interface OpenApiFuzzOptions {
  seed: number;
  /** Valid and invalid requests generated for each operation (each of the two kinds). */
  perOperation: number;
  /** The default API key, sent where an operation takes one. */
  apiKey: string;
  hints?: FuzzHints;
  /** Send every transport refusal to every operation (the bench), not one each. */
  everyTransportCase?: boolean;
  /** Called every 500 requests. */
  progress?: (line: string) => void;
}

/** Ids this simulator knows, for parameters and properties of these names, so valid requests reach past "unknown chain". */
export function simulatorHints(sim: RunningSimulator, requestId: string): FuzzHints {
  const chainIds = sim.chains.map((chain) => chain.id);
  const first = evmChainOf(sim, chainIds[0]!).contractAddresses;
  const addresses = sim.accounts.slice(0, 3).map((account) => account.address);
  const currencies = [zeroAddress, first.stablecoin, first.wrappedNative];
  const chainIdValues = [...chainIds, ...chainIds.map(String)];
  return {
    chainId: chainIdValues, originChainId: chainIdValues, destinationChainId: chainIdValues,
    user: addresses, wallet: addresses, recipient: addresses, depositor: addresses, account: addresses, to: addresses, refundTo: addresses,
    currency: currencies, originCurrency: currencies, destinationCurrency: currencies, address: currencies,
    amount: ['1000000000000000', '1000000'],
    apiKey: [sim.apiKey], requestId: [requestId],
  };
}

export interface OpenApiFuzzResult {
  requests: number;
  validRequests: number;
  invalidRequests: number;
  operations: number;
  /** Answers that contradict the documents, 5xx answers, hangs, and a simulator that stops answering. */
  problems: string[];
  /** `METHOD /template` → statuses seen. */
  statuses: Map<string, Set<number>>;
  seconds: number;
}

/** Requests every route must refuse the same way, whatever its schema: the body as a transport (SPEC: bad input gets a 4xx). */
function transportCases(operation: string, url: string, headers: Record<string, string>): FuzzCase[] {
  const method = operation.split(' ')[0]!;
  // fetch sends no body with GET (the documents still list these refusals on every operation: a raw client can)
  if (method === 'GET') return [];
  const base = { operation, method, url, valid: false };
  return [
    { ...base, headers: { ...headers, 'content-type': 'application/json' }, body: '{"not json', broke: 'transport: malformed JSON' },
    { ...base, headers: { ...headers, 'content-type': 'text/plain' }, body: '{}', broke: 'transport: text/plain body' },
    { ...base, headers: { ...headers, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: '{}', broke: 'transport: gzip body' },
    { ...base, headers: { ...headers, 'content-type': 'application/json; charset=utf-16' }, body: '{}', broke: 'transport: utf-16 charset' },
    { ...base, headers: { ...headers, 'content-type': 'application/json' }, body: `{"padding":"${'x'.repeat(1024 * 1024)}"}`, broke: 'transport: body over 1 MiB' },
  ];
}

/**
 * Fuzzes a simulator from its own OpenAPI documents (`GET /openapi.json` and `GET
 * /admin/openapi.json`): for every operation, `perOperation` requests whose parameters and body
 * satisfy their schemas and `perOperation` that break exactly one constraint, then each transport
 * refusal (malformed JSON, non-JSON, compressed, too large: one per operation, or each), all in one seeded
 * order. Every answer must have a status its operation documents and a body valid against that
 * status's schema; a schema-invalid request must be refused with a 4xx (whose `errorCode` is then
 * in the documented enum); no answer may be 5xx; the simulator must still answer `GET /chains`.
 */
export async function runOpenApiFuzz(baseUrl: string, options: OpenApiFuzzOptions): Promise<OpenApiFuzzResult> {
  const started = performance.now();
  const documents = await Promise.all(['/openapi.json', '/admin/openapi.json'].map(async (path) => (await fetch(`${baseUrl}${path}`)).json() as Promise<Record<string, unknown>>));
  const cases: FuzzCase[] = [];
  const validators = new Map<string, OpenApiAnswerValidator>();
  let operations = 0;
  for (const [index, document] of documents.entries()) {
    const arbitraries = new SchemaArbitraries(document, options.hints, `fuzzed-${index}.json`);
    const validator = new OpenApiAnswerValidator(document as OpenApiDocument, `answers-${index}.json`);
    for (const [path, method] of operationsOf(document)) {
      operations += 1;
      const operationSeed = options.seed + operations * 7919;
      const { valid, invalid } = arbitraries.requests(path, method, { apiKey: options.apiKey });
      const validCases = fc.sample(valid, { numRuns: options.perOperation, seed: operationSeed });
      cases.push(...validCases);
      if (invalid) cases.push(...fc.sample(invalid, { numRuns: options.perOperation, seed: operationSeed + 1 }));
      // one transport refusal per operation (each in turn, by seed): they are answered before any route runs
      const transport = transportCases(validCases[0]!.operation, validCases[0]!.url, validCases[0]!.headers);
      if (transport.length > 0) cases.push(...(options.everyTransportCase ? transport : [transport[(options.seed + operations) % transport.length]!]));
      validators.set(validCases[0]!.operation, validator);
    }
  }
  const order = fc.sample(fc.shuffledSubarray(cases.map((_case, index) => index), { minLength: cases.length, maxLength: cases.length }), { numRuns: 1, seed: options.seed })[0]!;

  // the connection that fetched the documents may have idled past the server's keep-alive while the cases were
  // generated: a request that finds it closed is not the fuzz's
  await fetch(`${baseUrl}/chains`).catch(() => undefined);
  options.progress?.(`  ${cases.length} requests generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const problems: string[] = [];
  const statuses = new Map<string, Set<number>>();
  const timings = new Map<string, number>();
  const sentLog: string[] = [];
  for (const [sent, index] of order.entries()) {
    const fuzzCase = cases[index]!;
    const previous = sent === 0 ? 'none' : (({ method, url, broke }) => `${method} ${url.slice(0, 100)} ${broke ?? ''}`)(cases[order[sent - 1]!]!);
    const described = `${fuzzCase.method} ${fuzzCase.url.slice(0, 200)} ${(fuzzCase.body ?? '').slice(0, 200)}${fuzzCase.broke ? ` (broke ${fuzzCase.broke})` : ''}`;
    let status: number;
    let json: unknown;
    const sentAt = performance.now();
    try {
      const response = await fetch(`${baseUrl}${fuzzCase.url}`, { method: fuzzCase.method, headers: fuzzCase.headers, ...(fuzzCase.body === undefined ? {} : { body: fuzzCase.body }), signal: AbortSignal.timeout(20_000) });
      status = response.status;
      const text = await response.text();
      json = text.length === 0 ? undefined : JSON.parse(text);
    } catch (error) {
      problems.push(`${described} → ${String(error)}${error instanceof Error && error.cause ? ` (${String(error.cause)})` : ''}; the request before: ${previous}`);
      continue;
    }
    sentLog.push(`${status} ${described}`);
    timings.set(fuzzCase.operation, (timings.get(fuzzCase.operation) ?? 0) + performance.now() - sentAt);
    if (!statuses.has(fuzzCase.operation)) statuses.set(fuzzCase.operation, new Set());
    statuses.get(fuzzCase.operation)!.add(status);
    const verdict = validators.get(fuzzCase.operation)!.verdict({ method: fuzzCase.method, url: `${baseUrl}${fuzzCase.url}`, status, json }, fuzzCase.operation);
    problems.push(...verdict.problems.map((problem) => `${problem}\n  request: ${described}`));
    if (status >= 500) problems.push(`${fuzzCase.operation} answered ${status}: ${JSON.stringify(json).slice(0, 300)}\n  request: ${described}`);
    else if (!fuzzCase.valid && status < 400) problems.push(`${fuzzCase.operation}: schema-invalid input answered ${status}\n  request: ${described}`);
    if ((sent + 1) % 500 === 0) options.progress?.(`  ${sent + 1}/${cases.length} requests, ${problems.length} problems`);
  }
  const alive = await fetch(`${baseUrl}/chains`, { signal: AbortSignal.timeout(20_000) }).then((response) => response.status, (error: unknown) => String(error));
  if (alive !== 200) problems.push(`GET /chains after the fuzz answered ${alive}`);
  if (process.env.OPENAPI_FUZZ_REPORT) {
    const { writeFileSync } = await import('node:fs');
    writeFileSync(process.env.OPENAPI_FUZZ_REPORT, [...problems, '', ...[...timings].sort((a, b) => b[1] - a[1]).map(([operation, ms]) => `${operation} ${ms.toFixed(0)} ms`), '', ...sentLog].join('\n'));
  }
  return {
    requests: cases.length,
    validRequests: cases.filter((fuzzCase) => fuzzCase.valid).length,
    invalidRequests: cases.filter((fuzzCase) => !fuzzCase.valid).length,
    operations,
    problems,
    statuses,
    seconds: (performance.now() - started) / 1000,
  };
}
