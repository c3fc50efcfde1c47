import type { ChainAdapter } from '../chains/ChainAdapter';
import type { Currency } from '../domain/chain/currency';
import { requestNamed, type ScenarioRunState } from './scenarioRunState';
import type { ExpectStepSchema, ExpectBalanceStepSchema } from './scenarioSchema';
import type { z } from 'zod';

/**
 * One expectation that did not hold: where it is in the file (step, line, and the YAML `path`
 * `--update` rewrites with `actual`), what was expected and what happened.
 */
export interface ExpectationMismatch {
  step: number;
  line: number;
  path: Array<string | number>;
  what: string;
  expected: unknown;
  actual: unknown;
  /** What the request waits on at that moment (src/scenario/describeWaits.ts), when anything does. */
  waits?: string;
}

/** Reads a dotted path (`data.outTxs.0.status`, `data.inTxs.length`) out of a JSON value. */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path.split('.')) {
    if (current === null || current === undefined) return undefined;
    if (part === 'length' && Array.isArray(current)) current = current.length;
    else current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function same(expected: unknown, actual: unknown): boolean {
  return JSON.stringify(expected) === JSON.stringify(actual);
}

async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await response.json() };
}

/**
 * Checks one `expect` step against what a user sees: the status endpoint (SPEC §2.4), the
 * request record (§2.3, GET /requests/v3), the committed status changes and the webhooks the
 * scenario's receiver accepted.
 */
export async function checkExpectation(state: ScenarioRunState, spec: z.output<typeof ExpectStepSchema>, stepIndex: number, line: number): Promise<ExpectationMismatch[]> {
  const quote = await requestNamed(state, spec.request);
  const { sim } = state;
  const mismatches: ExpectationMismatch[] = [];
  const compare = (what: string, path: Array<string | number>, expected: unknown, actual: unknown) => {
    if (expected !== undefined && !same(expected, actual)) {
      mismatches.push({ step: stepIndex + 1, line, path: ['steps', stepIndex, 'expect', ...path], what: `${spec.request} ${what}`, expected, actual });
    }
  };

  if (spec.status !== undefined || spec.failReason !== undefined || spec.refundFailReason !== undefined) {
    const status = await getJson(`${sim.baseUrl}/intents/status/v3?requestId=${quote.requestId}`);
    compare('status', ['status'], spec.status, status.body.status);
    compare('failReason', ['failReason'], spec.failReason, status.body.failReason);
    compare('refundFailReason', ['refundFailReason'], spec.refundFailReason, status.body.refundFailReason);
  }
  compare('statuses', ['statuses'], spec.statuses, (state.statuses.get(spec.request) ?? []).map((change) => change.to));
  if (spec.webhooks !== undefined) {
    const accepted = state.webhooks.filter((webhook) => webhook.requestId === quote.requestId && webhook.answer >= 200 && webhook.answer < 300).map((webhook) => webhook.status);
    compare('webhooks', ['webhooks'], spec.webhooks, accepted);
  }
  if (spec.record !== undefined) {
    const listing = await getJson(`${sim.baseUrl}/requests/v3?id=${quote.requestId}`, { 'x-api-key': sim.apiKey });
    const record = (listing.body.requests ?? [])[0];
    for (const [path, expected] of Object.entries(spec.record)) compare(`record ${path}`, ['record', path], expected, readPath(record, path) ?? null);
  }
  return mismatches;
}

/** Checks an `expectBalance` step against the chain. */
export async function checkBalance(chain: ChainAdapter, address: string, currency: Currency, spec: z.output<typeof ExpectBalanceStepSchema>, stepIndex: number, line: number): Promise<ExpectationMismatch[]> {
  const actual = (await chain.balanceOf(address, currency)).toString();
  if (actual === spec.equals) return [];
  return [{ step: stepIndex + 1, line, path: ['steps', stepIndex, 'expectBalance', 'equals'], what: `balance of ${address} in ${currency.symbol} on ${chain.chainId}`, expected: spec.equals, actual }];
}
