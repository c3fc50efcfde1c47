import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { z } from 'zod';
import { CheckSkipped } from './check';
import { ConformanceHttp, type Exchange } from './http';
import { hundredthOfUnit, tokenOnBoth, type QuoteBody } from './quoteBodies';
import { integerString } from './schemas/common';
import type { ConformanceTarget, TargetChain } from './target';
import { sharedRun } from './sharedRuns';

/** A request this run created by quoting (`POST /quote/v2`), and what it was quoted with. */
export interface QuotedRequest {
  requestId: string;
  /** What the quote is for, in a word (shown in failure details). */
  label: string;
  originChainId: number;
  destinationChainId: number;
  originCurrency: string;
  destinationCurrency: string;
  user: string;
  recipient: string;
  /** The `amount` of the quote body (EXACT_INPUT: the input). */
  amount: bigint;
  /** `details.currencyIn.amount` of the answer: the quoted input. */
  amountIn: bigint;
  /** `details.currencyIn.amountUsd`, when the answer has a number there. */
  amountInUsd: number | undefined;
  /** Symbols as `GET /chains` names the two currencies. */
  currencyInSymbol: string;
  currencyOutSymbol: string;
  /** `protocol.v2.orderId`, when the quote settles through the protocol. */
  orderId: string | undefined;
  /** The step's `depositAddress`, for a quote made with `useDepositAddress: true`. */
  depositAddress: string | undefined;
  /** The quote was sent with the run's `x-api-key` (so the request is that key's). */
  withApiKey: boolean;
  /** The answer's `Date` header (the target's clock when the request was created), unix ms. */
  quotedAt: number | undefined;
}

/** The requests of one run: one user and one recipient of their own, so filters can single them out. */
export interface QuotedRequestSet {
  user: string;
  recipient: string;
  requests: QuotedRequest[];
  /** The chains quoted between: `a` and `b` always, `c` when the target lists a third EVM chain. */
  chains: { a: TargetChain; b: TargetChain; c: TargetChain | undefined };
}

/**
 * The requests this run quoted on `target`, quoted once per run on first use: native bridges
 * a→b and b→a of different sizes (one without the API key), and where the target takes them a
 * deposit-address quote, a same-symbol ERC-20 bridge and a bridge to a third chain. Chains,
 * currencies and decimals come from `GET /chains`. Nothing is paid. The user and recipient are
 * fresh random addresses, so records of earlier runs never mix in. Throws `CheckSkipped` when
 * the target cannot be quoted (fewer than two EVM chains, a plain bridge quote refused).
 */
export function quotedRequestsOf(target: ConformanceTarget): Promise<QuotedRequestSet> {
  return sharedRun(target, 'quoted-requests', () => quoteRequestSet(target));
}

function randomAddress(): string {
  return getAddress(`0x${randomBytes(20).toString('hex')}`);
}

interface QuotePlan {
  label: string;
  origin: TargetChain;
  destination: TargetChain;
  originCurrency: { address: string; decimals: number; symbol: string };
  destinationCurrency: { address: string; symbol: string };
  /** Amount in hundredths of a whole token (1 = 0.01). */
  hundredths: bigint;
  withApiKey: boolean;
  required: boolean;
  extra?: Record<string, unknown>;
}

async function quoteRequestSet(target: ConformanceTarget): Promise<QuotedRequestSet> {
  const [a, b, c] = (await target.evmChains()).filter((chain) => chain.currency !== undefined);
  if (!a || !b) throw new CheckSkipped('the target lists fewer than two EVM chains with a native currency: nothing to quote a bridge between');
  const http = new ConformanceHttp(target.baseUrl, target.apiKey);
  const user = randomAddress();
  const recipient = randomAddress();
  const native = (chain: TargetChain) => chain.currency!;
  const keyed = target.apiKey !== undefined;
  const pair = tokenOnBoth(a, b);
  const plans: QuotePlan[] = [
    { label: 'native bridge a→b', origin: a, destination: b, originCurrency: native(a), destinationCurrency: native(b), hundredths: 1n, withApiKey: keyed, required: true },
    { label: 'native bridge b→a', origin: b, destination: a, originCurrency: native(b), destinationCurrency: native(a), hundredths: 2n, withApiKey: keyed, required: true },
    { label: 'native bridge a→b without a key', origin: a, destination: b, originCurrency: native(a), destinationCurrency: native(b), hundredths: 4n, withApiKey: false, required: true },
    {
      label: 'native bridge a→b through a deposit address',
      origin: a,
      destination: b,
      originCurrency: native(a),
      destinationCurrency: native(b),
      hundredths: 3n,
      withApiKey: keyed,
      required: false,
      extra: { useDepositAddress: true },
    },
    ...(pair
      ? [{ label: `${pair.token.symbol} bridge a→b`, origin: a, destination: b, originCurrency: pair.token, destinationCurrency: pair.twin, hundredths: 1000n, withApiKey: keyed, required: false }]
      : []),
    ...(c ? [{ label: 'native bridge a→c', origin: a, destination: c, originCurrency: native(a), destinationCurrency: native(c), hundredths: 5n, withApiKey: keyed, required: false }] : []),
  ];
  const requests: QuotedRequest[] = [];
  for (const plan of plans) {
    const body: QuoteBody & { recipient: string } = {
      user,
      originChainId: plan.origin.id,
      destinationChainId: plan.destination.id,
      originCurrency: plan.originCurrency.address,
      destinationCurrency: plan.destinationCurrency.address,
      amount: (hundredthOfUnit(plan.originCurrency.decimals) * plan.hundredths).toString(),
      tradeType: 'EXACT_INPUT',
      recipient,
      ...plan.extra,
    };
    const exchange = await http.post('/quote/v2', body, { withApiKey: plan.withApiKey });
    const quoted = readQuote(exchange, plan, body);
    if (quoted) requests.push(quoted);
    else if (plan.required) throw new CheckSkipped(`POST /quote/v2 for a ${plan.label} answered HTTP ${exchange.status} without a requestId: no request to look up`);
  }
  return { user, recipient, requests, chains: { a, b, c } };
}

/** The few fields of a §2.2 quote answer the suite reads back (the quote checks judge the whole shape). */
const quoteAnswer = z.object({
  steps: z.array(z.looseObject({ requestId: z.string().optional(), depositAddress: z.string().optional() })),
  details: z.looseObject({ currencyIn: z.looseObject({ amount: integerString, amountUsd: z.string().optional() }).optional() }).optional(),
  protocol: z.looseObject({ v2: z.looseObject({ orderId: z.string().optional() }).optional() }).optional(),
});

function readQuote(exchange: Exchange, plan: QuotePlan, body: { user: string; recipient: string; amount: string; originCurrency: string; destinationCurrency: string }): QuotedRequest | undefined {
  if (exchange.status !== 200) return undefined;
  const parsed = quoteAnswer.safeParse(exchange.json);
  if (!parsed.success) return undefined;
  const { steps, details, protocol } = parsed.data;
  const requestId = steps.map((step) => step.requestId).findLast((id) => id !== undefined && id.length > 0);
  if (!requestId) return undefined;
  const depositAddress = steps.map((step) => step.depositAddress).find((address) => address !== undefined && address.length > 0);
  const usd = Number(details?.currencyIn?.amountUsd);
  const date = Date.parse(exchange.responseHeaders.date ?? '');
  return {
    requestId,
    label: plan.label,
    originChainId: plan.origin.id,
    destinationChainId: plan.destination.id,
    originCurrency: body.originCurrency,
    destinationCurrency: body.destinationCurrency,
    user: body.user,
    recipient: body.recipient,
    amount: BigInt(body.amount),
    amountIn: BigInt(details?.currencyIn?.amount ?? body.amount),
    amountInUsd: details?.currencyIn?.amountUsd !== undefined && Number.isFinite(usd) ? usd : undefined,
    currencyInSymbol: plan.originCurrency.symbol,
    currencyOutSymbol: plan.destinationCurrency.symbol,
    orderId: protocol?.v2?.orderId,
    depositAddress: plan.extra?.useDepositAddress ? depositAddress : undefined,
    withApiKey: plan.withApiKey,
    quotedAt: Number.isFinite(date) ? date : undefined,
  };
}
