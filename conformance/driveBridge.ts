import { z } from 'zod';
import type { BridgeRoute } from './bridgeRoute';
import { expectShape, expectStatus } from './expectations';
import type { ConformanceHttp, Exchange } from './http';
import { integerString } from './schemas/common';
import { statusResponseSchema, type StatusResponse } from './schemas/statusResponseSchema';
import { payStepItems, type PaidItem } from './wallet';
import { skipCheck } from './check';

/** What a wallet needs of a §2.2 quote to pay it and follow it (the quote family judges the whole shape). */
const payableQuoteSchema = z.object({
  steps: z
    .array(
      z.object({
        id: z.string(),
        kind: z.string(),
        requestId: z.string(),
        items: z.array(
          z.object({
            status: z.string(),
            data: z.object({ to: z.string(), data: z.string(), value: integerString, chainId: z.number().int(), gas: integerString.optional(), maxFeePerGas: integerString.optional(), maxPriorityFeePerGas: integerString.optional() }),
            check: z.object({ endpoint: z.string(), method: z.string() }).optional(),
          }),
        ),
      }),
    )
    .min(1),
  details: z.object({ currencyOut: z.object({ amount: integerString, minimumAmount: integerString }) }),
});

export type PayableQuote = z.infer<typeof payableQuoteSchema>;

export interface ObservedStatus {
  body: StatusResponse;
  exchange: Exchange;
}

/** One request driven as an integrator would: quoted, paid from the funded account, followed until it settles. */
export interface BridgeRun {
  route: BridgeRoute;
  requestId: string;
  quoteExchange: Exchange;
  quote: PayableQuote;
  paid: PaidItem[];
  /** `GET /intents/status/v3` answers in the order seen: once right after the quote, at every poll after paying, and once more after it settled. */
  statuses: ObservedStatus[];
  /** The deposit item's `check.endpoint` (§2.2), followed alongside, when the quote gives one. */
  checkEndpoint: { endpoint: string; method: string; answers: Exchange[] } | undefined;
  /** The last status seen. */
  final: ObservedStatus;
}

export interface DriveBridgeOptions {
  /** Quote with the run's `x-api-key` (the request is then the key's: listing, webhooks). */
  withApiKey: boolean;
  referrer?: string;
  /** Called with the request id once quoted, before paying (to script the target's solver). */
  beforePaying?: (requestId: string) => Promise<void>;
  /** Following stops at the first of these statuses. */
  settlesAt: readonly string[];
  timeoutMs?: number;
}

/** Polls faster than §4.2's recommended once a second: a local target settles in well under one. */
const POLL_MS = 100;

/** Quotes a native bridge on `route`, pays its step items and follows its status until it settles. */
export async function driveBridge(http: ConformanceHttp, route: BridgeRoute, options: DriveBridgeOptions): Promise<BridgeRun> {
  const quoteExchange = await http.post(
    '/quote/v2',
    {
      user: route.user,
      originChainId: route.origin.id,
      destinationChainId: route.destination.id,
      originCurrency: route.origin.currency.address,
      destinationCurrency: route.destination.currency.address,
      amount: route.amount.toString(),
      tradeType: 'EXACT_INPUT',
      ...(options.referrer ? { referrer: options.referrer } : {}),
    },
    { withApiKey: options.withApiKey },
  );
  expectStatus(quoteExchange, 200, '§4.1: POST /quote/v2 answers 200 for a native bridge between two listed chains');
  const quote = expectShape(quoteExchange, payableQuoteSchema, '§2.2: a quote carries steps with items and details.currencyOut');
  if (quote.steps.some((step) => step.kind !== 'transaction')) skipCheck(`the quote has a step of kind ${quote.steps.find((step) => step.kind !== 'transaction')!.kind}; full mode pays transaction steps only`);
  const requestId = quote.steps.at(-1)!.requestId;
  const check = quote.steps.flatMap((step) => step.items).findLast((item) => item.check)?.check;
  const checkEndpoint = check ? { ...check, answers: [] as Exchange[] } : undefined;

  const statuses: ObservedStatus[] = [];
  const observeStatus = async () => {
    const exchange = await http.get('/intents/status/v3', { query: { requestId } });
    expectStatus(exchange, 200, '§4.2: GET /intents/status/v3 answers 200 for a quoted request');
    const observed = { body: expectShape(exchange, statusResponseSchema, '§2.4: the status response has every field, typed as the table says'), exchange };
    statuses.push(observed);
    return observed;
  };

  await observeStatus();
  await options.beforePaying?.(requestId);
  const paid = await payStepItems(quote.steps, { privateKey: route.privateKey, rpcUrlOf: (chainId) => route.rpcUrls[chainId] });

  const deadline = performance.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const observed = await observeStatus();
    if (checkEndpoint) checkEndpoint.answers.push(await http.request(checkEndpoint.method, checkEndpoint.endpoint));
    if (options.settlesAt.includes(observed.body.status)) break;
    if (performance.now() > deadline) throw new Error(`request ${requestId} did not reach ${options.settlesAt.join(' or ')} in ${options.timeoutMs ?? 30_000} ms; statuses seen: ${statuses.map((s) => s.body.status).join(' → ')}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  const final = await observeStatus();
  return { route, requestId, quoteExchange, quote, paid, statuses, checkEndpoint, final };
}

/** The statuses of a run as one line, for a failure's detail. */
export function statusTrail(run: Pick<BridgeRun, 'statuses'>): string {
  return run.statuses.map((observed) => observed.body.status).join(' → ');
}
