import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../src/simulator';
import { nativeBridgeBody } from '../support/bridgeClient';
import { runOpenApiFuzz, simulatorHints, type OpenApiFuzzResult } from '../support/openApiFuzzRun';
import { startTestSimulator } from '../support/startTestSimulator';

/**
 * Issue 33 part 7: the OpenAPI documents proven by fuzzing. Requests generated from the documents
 * themselves (test/support/openApiFuzz.ts), valid and schema-invalid, on every public and admin
 * operation, in one seeded order: every answer's status is documented for its operation and its
 * body valid against that status's schema, every invalid input is a 4xx with a documented
 * errorCode, no answer is 5xx, and the simulator answers GET /chains after. A larger run:
 * `OPENAPI_FUZZ_COUNT=20 OPENAPI_FUZZ_SEED=9 npx vitest run test/api/openapiFuzz.test.ts`, or the
 * bench (scripts/bench/fuzz.ts, BENCH_OPENAPI_FUZZ_COUNT).
 */
const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? 33);
const PER_OPERATION = Number(process.env.OPENAPI_FUZZ_COUNT ?? 2);

let sim: RunningSimulator;
let result: OpenApiFuzzResult;
/** What the simulator logged (a 500's cause). */
const serverLog: string[] = [];
beforeAll(async () => {
  sim = await startTestSimulator({ httpRequestTimeoutMs: 5000, log: (message, error) => serverLog.push(`${message} ${error instanceof Error ? error.stack : String(error ?? '')}`) });
  const [origin, destination] = sim.chains.map((chain) => chain.id) as [number, number];
  const quote = (await (await fetch(`${sim.baseUrl}/quote/v2`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(nativeBridgeBody(sim.accounts[0]!.address, { originChainId: origin, destinationChainId: destination })) })).json()) as {
    steps: { requestId: string }[];
  };
  result = await runOpenApiFuzz(sim.baseUrl, { seed: SEED, perOperation: PER_OPERATION, apiKey: sim.apiKey, hints: simulatorHints(sim, quote.steps.at(-1)!.requestId), progress: (line) => console.log(line) });
  console.log(`openapi fuzz: ${result.requests} requests (${result.validRequests} valid, ${result.invalidRequests} invalid) on ${result.operations} operations in ${result.seconds.toFixed(1)} s, seed ${SEED}`);
}, 300_000);
afterAll(async () => {
  await sim?.stop();
});

describe('the OpenAPI documents, fuzzed from themselves', () => {
  it('no answer contradicts its document, none is 5xx, every invalid input is a documented 4xx, and the simulator is alive after', () => {
    expect(result.problems.slice(0, 30), [...result.problems.slice(0, 30), ...serverLog.filter((line) => line.includes('failed')).slice(0, 5)].join('\n')).toEqual([]);
  });

  it('reached every operation of both documents, and got past schema checks on most of them', () => {
    expect(result.statuses.size).toBe(result.operations);
    // a valid request reaches the route's own logic: a success, or an error other than a schema refusal
    const succeeded = [...result.statuses].filter(([, statuses]) => [...statuses].some((status) => status < 300)).map(([operation]) => operation);
    expect(succeeded.length, `operations with a success: ${succeeded.join(', ')}`).toBeGreaterThan(result.operations / 2);
  });
});
