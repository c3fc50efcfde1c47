import fc from 'fast-check';
import { startSimulator } from '../../src/simulator';
import { nativeBridgeBody } from '../../test/support/bridgeClient';
import { fuzzArbitraries, sendFuzzMessages, sendFuzzRequest } from '../../test/support/fuzzInputs';
import { OpenApiAnswerValidator, type OpenApiDocument } from '../../test/support/openapiAnswerValidator';
import { runOpenApiFuzz, simulatorHints, type OpenApiFuzzResult } from '../../test/support/openApiFuzzRun';

export interface FuzzResult {
  httpInputs: number;
  websocketBatches: number;
  /** Answers that were 5xx, or 4xx without an errorCode: each with what was sent. */
  failures: string[];
  seconds: number;
}

/**
 * The long fuzz run (the seeded sample of it is test/api/noServerErrors.test.ts): `count` random
 * requests against every input route and `count / 50` websocket message batches, against one
 * simulator on its own chains. Every answer must be 2xx, or 4xx with `{ errorCode, message }`, and
 * one its operation's OpenAPI document lists.
 */
export async function benchFuzz(count: number, seed: number, progress: (line: string) => void): Promise<FuzzResult> {
  const started = performance.now();
  const sim = await startSimulator({ port: 0, env: {}, log: () => undefined, httpRequestTimeoutMs: 2000 });
  const failures: string[] = [];
  try {
    const { httpRequest, wsMessage } = fuzzArbitraries(sim);
    const documents = await Promise.all(
      ['/openapi.json', '/admin/openapi.json'].map(async (path) => new OpenApiAnswerValidator((await (await fetch(`${sim.baseUrl}${path}`)).json()) as OpenApiDocument, `bench-fuzz${path}`)),
    );
    const requests = fc.sample(httpRequest, { numRuns: count, seed });
    for (const [index, request] of requests.entries()) {
      const broken = await sendFuzzRequest(sim.baseUrl, request, documents);
      if (broken) failures.push(broken);
      if ((index + 1) % 2500 === 0) progress(`  ${index + 1}/${count} requests, ${failures.length} failures`);
    }
    const batches = fc.sample(fc.array(wsMessage, { minLength: 1, maxLength: 8 }), { numRuns: Math.max(1, Math.floor(count / 50)), seed });
    for (const batch of batches) {
      const broken = await sendFuzzMessages(sim.baseUrl, batch);
      if (broken) failures.push(`websocket: ${broken}`);
    }
    return { httpInputs: requests.length, websocketBatches: batches.length, failures, seconds: (performance.now() - started) / 1000 };
  } finally {
    await sim.stop();
  }
}

/**
 * The long OpenAPI fuzz (the seeded sample of it is test/api/openapiFuzz.test.ts): `perOperation`
 * valid and as many schema-invalid requests on every operation of `GET /openapi.json` and
 * `GET /admin/openapi.json`, and every transport refusal on each; every answer must be documented.
 */
export async function benchOpenApiFuzz(perOperation: number, seed: number, progress: (line: string) => void): Promise<OpenApiFuzzResult> {
  const sim = await startSimulator({ port: 0, env: {}, log: () => undefined, httpRequestTimeoutMs: 5000 });
  try {
    const [origin, destination] = sim.chains.map((chain) => chain.id) as [number, number];
    const quote = (await (await fetch(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(nativeBridgeBody(sim.accounts[0]!.address, { originChainId: origin, destinationChainId: destination })) })).json()) as { steps: { requestId: string }[] };
    return await runOpenApiFuzz(sim.baseUrl, { seed, perOperation, apiKey: sim.apiKey, hints: simulatorHints(sim, quote.steps.at(-1)!.requestId), everyTransportCase: true, progress });
  } finally {
    await sim.stop();
  }
}
