import type { Deviation, ProxiedRequest, ProxiedResponse } from '../deviationProxy';

/** A JSON body as the deviations rewrite it (loosely typed on purpose: they break shapes). */
type Loose = Record<string, any>;

const OTHER_ADDRESS = '0x000000000000000000000000000000000000dEaD';
const UNKNOWN_REQUEST_ID = `0x${'ab'.repeat(32)}`;

function bodyOf(request: ProxiedRequest): Loose {
  return (request.body ?? {}) as Loose;
}

/** Changes each 200 answer of `POST path` (default `/quote/v2`) whose request `when` accepts. */
function answered(change: (body: Loose, request: Loose) => void, path = '/quote/v2', when: (request: Loose) => boolean = () => true): Deviation['response'] {
  return (request, response) => {
    if (request.method !== 'POST' || request.path !== path || response.status !== 200 || !when(bodyOf(request))) return undefined;
    const body = structuredClone(response.body) as Loose;
    change(body, bodyOf(request));
    return { body };
  };
}

/** Replaces the answer of `POST path` when `when` holds for the request and the simulator's answer. */
function replaced(path: string, when: (request: Loose, response: ProxiedResponse) => boolean, answer: (response: ProxiedResponse) => { status?: number; body?: unknown }): Deviation['response'] {
  return (request, response) => (request.method === 'POST' && request.path === path && when(bodyOf(request), response) ? answer(response) : undefined);
}

/** Rewrites the body of `POST path` before it reaches the simulator (a rule the deployment does not enforce). */
function rewritten(path: string, change: (body: Loose) => Loose | undefined): Deviation['request'] {
  return (request) => {
    if (request.method !== 'POST' || request.path !== path || typeof request.body !== 'object' || request.body === null) return undefined;
    const body = change(structuredClone(request.body) as Loose);
    return body ? { body } : undefined;
  };
}

function without(body: Loose, field: string): Loose {
  delete body[field];
  return body;
}

const errorCodeOf = (response: ProxiedResponse) => (response.body as Loose | undefined)?.errorCode as string | undefined;
const asServerError = (response: ProxiedResponse) => ({ status: 500, body: { errorCode: 'INTERNAL_ERROR', message: `was: ${response.text.slice(0, 80)}` } });
const withErrorCode = (errorCode: string) => (response: ProxiedResponse) => ({ body: { ...(response.body as Loose), errorCode } });
const isNegative = (value: unknown) => typeof value === 'string' && value.startsWith('-');
const isAboveMax = (value: unknown) => typeof value === 'string' && /^\d+$/.test(value) && BigInt(value) > 10000n;
const isSameChain = (request: Loose) => request.originChainId === request.destinationChainId;

/** Shape deviations of §2.2 on the native bridge quote. */
const shapeDeviations: readonly Deviation[] = [
  { name: 'fees.gas.amount as a number', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.fees.gas.amount = Number(q.fees.gas.amount))) },
  { name: 'a fee amount with a decimal point', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.fees.relayer.amount = '0.5')) },
  { name: 'fees without subsidized', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void delete q.fees.subsidized) },
  { name: 'step kind "tx" (not transaction or signature)', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.steps[0].kind = 'tx')) },
  { name: 'a step without requestId', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void delete q.steps[0].requestId) },
  { name: 'a step depositAddress when none was asked for', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.steps[0].depositAddress = OTHER_ADDRESS)) },
  { name: 'details.timeEstimate as a string', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.details.timeEstimate = String(q.details.timeEstimate))) },
  { name: 'details without currencyOut', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void delete q.details.currencyOut) },
  { name: 'details.isFixedRate as "false"', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.details.isFixedRate = 'false')) },
  { name: 'protocol.v2.hubType "offchain"', section: '2.2', only: ['quote.native-bridge-shape'], response: answered((q) => void (q.protocol.v2.hubType = 'offchain')) },
  {
    name: 'protocol.v2 output deadline in unix milliseconds',
    section: '2.2',
    only: ['quote.native-bridge-shape'],
    response: answered((q) => void (q.protocol.v2.orderData.output.deadline *= 1000)),
  },
  { name: 'item data.value as a number (ERC-20 deposit)', section: '2.2', only: ['quote.erc20-bridge-shape'], response: answered((q) => void (q.steps.at(-1).items[0].data.value = 0)) },
  { name: 'approval item data without from', section: '2.2', only: ['quote.erc20-bridge-shape'], response: answered((q) => void delete q.steps.find((s: Loose) => s.id === 'approve').items[0].data.from) },
];

/** Behaviour deviations of §2.2, §4.1, §4.6, §4.7 and §9 on answered quotes. */
const behaviourDeviations: readonly Deviation[] = [
  {
    name: 'check.endpoint carries another requestId',
    section: '2.2',
    only: ['quote.check-endpoint'],
    response: answered((q) => q.steps.forEach((s: Loose) => s.items.forEach((i: Loose) => i.check && (i.check.endpoint = `/intents/status/v3?requestId=${UNKNOWN_REQUEST_ID}`)))),
  },
  { name: 'check.method POST', section: '2.2', only: ['quote.check-endpoint'], response: answered((q) => q.steps.forEach((s: Loose) => s.items.forEach((i: Loose) => i.check && (i.check.method = 'POST')))) },
  { name: 'a requestId the status lookup does not know', section: '2.2', only: ['quote.request-id-lookup'], response: answered((q) => q.steps.forEach((s: Loose) => (s.requestId = UNKNOWN_REQUEST_ID))) },
  { name: 'item data.from is not the user', section: '2.2', only: ['quote.evm-item-data'], response: answered((q) => void (q.steps[0].items[0].data.from = OTHER_ADDRESS)) },
  { name: 'native deposit value below the amount', section: '2.2', only: ['quote.evm-item-data'], response: answered((q) => void (q.steps.at(-1).items[0].data.value = '1')) },
  { name: 'orderSignature dropped with includeProtocolData: true', section: '2.2', only: ['quote.protocol-v2'], response: answered((q) => void delete q.protocol.v2.orderSignature) },
  { name: 'paymentDetails.depository is not the /chains depository', section: '2.2', only: ['quote.protocol-v2'], response: answered((q) => void (q.protocol.v2.paymentDetails.depository = OTHER_ADDRESS)) },
  {
    name: 'orderSignature returned without the opt-in',
    section: '2.2',
    only: ['quote.order-signature-opt-in'],
    response: answered((q) => void (q.protocol.v2.orderSignature = `0x${'11'.repeat(65)}`), '/quote/v2', (request) => request.includeProtocolData !== true),
  },
  {
    name: 'orderSignature forged (r replaced)',
    section: '2.2',
    only: ['quote.order-signature-recovers'],
    response: answered((q) => void (q.protocol.v2.orderSignature = `0x${'5a'.repeat(32)}${q.protocol.v2.orderSignature.slice(66)}`)),
  },
  { name: 'recipient not defaulted to the user', section: '4.1', only: ['quote.recipient-defaults-to-user'], response: answered((q) => void (q.details.recipient = OTHER_ADDRESS)) },
  { name: 'details.sender is not the user', section: '4.1', only: ['quote.recipient-defaults-to-user'], response: answered((q) => void (q.details.sender = OTHER_ADDRESS)) },
  { name: 'an explicit recipient ignored', section: '4.1', only: ['quote.explicit-recipient'], request: rewritten('/quote/v2', (body) => without(body, 'recipient')) },
  { name: 'EXACT_INPUT currencyIn.amount is not the amount', section: '4.1', only: ['quote.exact-input'], response: answered((q) => void (q.details.currencyIn.amount = (BigInt(q.details.currencyIn.amount) - 1n).toString())) },
  {
    name: 'EXACT_OUTPUT quoted as EXACT_INPUT',
    section: '4.1',
    only: ['quote.output-trade-types'],
    request: rewritten('/quote/v2', (body) => (body.tradeType === 'EXACT_OUTPUT' ? { ...body, tradeType: 'EXACT_INPUT' } : undefined)),
  },
  {
    name: 'EXPECTED_OUTPUT refused',
    section: '4.1',
    only: ['quote.output-trade-types'],
    response: replaced('/quote/v2', (request) => request.tradeType === 'EXPECTED_OUTPUT', () => ({ status: 400, body: { errorCode: 'INVALID_INPUT_PARAMS', message: 'tradeType' } })),
  },
  { name: 'currencyOut on the origin chain', section: '4.1', only: ['quote.currencies-match-request'], response: answered((q) => void (q.details.currencyOut.currency.chainId = q.details.currencyIn.currency.chainId)) },
  { name: 'the zero address quoted as another currency', section: '4.1', only: ['quote.currencies-match-request'], response: answered((q) => void (q.details.currencyIn.currency.symbol = 'NOTNATIVE')) },
  {
    name: 'strict without refundTo accepted',
    section: '4.1',
    only: ['quote.strict-needs-refund-to'],
    request: rewritten('/quote/v2', (body) => (body.strict === true && !body.refundTo ? { ...body, refundTo: body.user } : undefined)),
  },
  { name: 'strict without refundTo answered 500', section: '4.1', only: ['quote.strict-needs-refund-to'], response: replaced('/quote/v2', (request, response) => request.strict === true && response.status === 400, asServerError) },
  { name: 'useDepositAddress ignored', section: '4.6', only: ['quote.deposit-address'], request: rewritten('/quote/v2', (body) => without(body, 'useDepositAddress')) },
  { name: 'POST /price answers steps', section: '4.7', only: ['quote.price-shape'], response: answered((p) => void (p.steps = []), '/price') },
  {
    name: 'the old includeProtocolSignature honoured',
    section: '9',
    only: ['quote.old-protocol-flag-ignored'],
    request: rewritten('/quote/v2', (body) => (body.includeProtocolSignature === true ? { ...body, includeProtocolData: true } : undefined)),
  },
];

/** §7.1 and §8 deviations: errors not raised, raised with the wrong code or status, or bodies without errorCode. */
const errorDeviations: readonly Deviation[] = [
  { name: 'INVALID_ADDRESS answered 500', section: '7.1', only: ['quote-errors.recipient-invalid-address'], response: replaced('/quote/v2', (_, response) => errorCodeOf(response) === 'INVALID_ADDRESS', asServerError) },
  {
    name: 'an INVALID_ADDRESS body without errorCode',
    section: '7.1',
    only: ['quote-errors.recipient-invalid-address'],
    response: replaced('/quote/v2', (_, response) => errorCodeOf(response) === 'INVALID_ADDRESS', (response) => ({ body: without({ ...(response.body as Loose) }, 'errorCode') })),
  },
  {
    name: 'an INVALID_ADDRESS body without message',
    section: '7.1',
    only: ['quote-errors.recipient-invalid-address'],
    response: replaced('/price', (_, response) => errorCodeOf(response) === 'INVALID_ADDRESS', (response) => ({ body: without({ ...(response.body as Loose) }, 'message') })),
  },
  {
    name: 'an SVM-style recipient accepted on /price',
    section: '7.1',
    only: ['quote-errors.recipient-invalid-address'],
    request: rewritten('/price', (body) => (typeof body.recipient === 'string' && body.recipient.startsWith('So1') ? without(body, 'recipient') : undefined)),
  },
  {
    name: 'EIP-55 checksum not validated',
    section: '7.1',
    only: ['quote-errors.recipient-bad-checksum'],
    request: rewritten('/quote/v2', (body) => (typeof body.recipient === 'string' ? { ...body, recipient: body.recipient.toLowerCase() } : undefined)),
  },
  { name: 'INVALID_RECIPIENT reported as INVALID_ADDRESS', section: '7.1', only: ['quote-errors.recipient-token-contract'], response: replaced('/quote/v2', (_, response) => errorCodeOf(response) === 'INVALID_RECIPIENT', withErrorCode('INVALID_ADDRESS')) },
  { name: 'a token-contract recipient accepted on /price', section: '7.1', only: ['quote-errors.recipient-token-contract'], request: rewritten('/price', (body) => without(body, 'recipient')) },
  {
    name: 'a negative slippageTolerance not enforced on /price',
    section: '7.1',
    only: ['quote-errors.slippage-negative'],
    request: rewritten('/price', (body) => (isNegative(body.slippageTolerance) ? without(body, 'slippageTolerance') : undefined)),
  },
  {
    name: 'a negative latePaymentSlippageTolerance not enforced on /quote/v2',
    section: '7.1',
    only: ['quote-errors.slippage-negative'],
    request: rewritten('/quote/v2', (body) => (isNegative(body.latePaymentSlippageTolerance) ? without(body, 'latePaymentSlippageTolerance') : undefined)),
  },
  {
    name: 'slippage above 10000 not enforced on /price',
    section: '7.1',
    only: ['quote-errors.slippage-above-max'],
    request: rewritten('/price', (body) => (isAboveMax(body.slippageTolerance) ? without(body, 'slippageTolerance') : undefined)),
  },
  {
    name: 'slippage above 10000 not enforced on the older POST /quote',
    section: '7.1',
    only: ['quote-errors.slippage-above-max'],
    request: rewritten('/quote', (body) => (isAboveMax(body.slippageTolerance) ? without(body, 'slippageTolerance') : undefined)),
  },
  { name: 'a non-integer slippage on /price answered 500', section: '7.1', only: ['quote-errors.slippage-non-integer'], response: replaced('/price', (_, response) => errorCodeOf(response) === 'INVALID_SLIPPAGE_TOLERANCE', asServerError) },
  {
    name: 'INVALID_SLIPPAGE_TOLERANCE reported as INVALID_INPUT_PARAMS',
    section: '7.1',
    only: ['quote-errors.slippage-non-integer'],
    response: replaced('/quote/v2', (_, response) => errorCodeOf(response) === 'INVALID_SLIPPAGE_TOLERANCE', withErrorCode('INVALID_INPUT_PARAMS')),
  },
  {
    name: 'slippage "10000" refused',
    section: '8',
    only: ['quote-errors.slippage-bounds-accepted'],
    response: replaced('/price', (request) => request.slippageTolerance === '10000', () => ({ status: 400, body: { errorCode: 'INVALID_SLIPPAGE_TOLERANCE', message: 'at most 9999' } })),
  },
  {
    name: 'a dust same-chain swap quoted',
    section: '7.1',
    only: ['quote-errors.same-chain-dust'],
    response: replaced('/quote/v2', (request, response) => isSameChain(request) && errorCodeOf(response) === 'AMOUNT_TOO_LOW', () => ({ status: 200, body: { steps: [] } })),
  },
  { name: 'AMOUNT_TOO_LOW reported as INVALID_INPUT_PARAMS on /price', section: '7.1', only: ['quote-errors.same-chain-dust'], response: replaced('/price', (_, response) => errorCodeOf(response) === 'AMOUNT_TOO_LOW', withErrorCode('INVALID_INPUT_PARAMS')) },
  {
    name: 'a dust wrap refused',
    section: '7.1',
    only: ['quote-errors.dust-wrap-accepted'],
    response: replaced('/quote/v2', (request, response) => isSameChain(request) && response.status === 200, () => ({ status: 400, body: { errorCode: 'AMOUNT_TOO_LOW', message: 'dust' } })),
  },
  {
    name: 'a same-chain swap of about $10 refused',
    section: '8',
    only: ['quote-errors.same-chain-above-minimum'],
    response: replaced('/quote/v2', (request, response) => isSameChain(request) && response.status === 200, () => ({ status: 400, body: { errorCode: 'AMOUNT_TOO_LOW', message: 'minimum $20' } })),
  },
  { name: 'malformed JSON answered 500', section: '7.1', only: ['quote-errors.malformed-json'], response: replaced('/quote/v2', (request, response) => response.status >= 400 && request.user === undefined, asServerError) },
  {
    name: 'malformed JSON answered without errorCode',
    section: '7.1',
    only: ['quote-errors.malformed-json'],
    response: replaced('/price', (request, response) => response.status >= 400 && request.user === undefined, () => ({ body: { error: 'Bad Request' } })),
  },
  { name: 'a string originChainId answered 500', section: '7.1', only: ['quote-errors.wrong-types'], response: replaced('/quote/v2', (request) => typeof request.originChainId === 'string', asServerError) },
  { name: 'a numeric slippageTolerance accepted', section: '7.1', only: ['quote-errors.wrong-types'], request: rewritten('/quote/v2', (body) => (typeof body.slippageTolerance === 'number' ? { ...body, slippageTolerance: String(body.slippageTolerance) } : undefined)) },
  { name: 'an amount of 2^256 answered 500', section: '7.1', only: ['quote-errors.huge-numbers'], response: replaced('/price', (request) => typeof request.amount === 'string' && request.amount.length > 77, asServerError) },
  { name: 'a missing amount answered 500', section: '7.1', only: ['quote-errors.missing-fields'], response: replaced('/quote/v2', (request) => request.amount === undefined, asServerError) },
  { name: 'an unlisted chain answered 500', section: '7.1', only: ['quote-errors.unsupported-chain-or-currency'], response: replaced('/quote/v2', (_, response) => response.status >= 400 && response.status < 500, asServerError) },
];

export const quoteDeviations: readonly Deviation[] = [...shapeDeviations, ...behaviourDeviations, ...errorDeviations];
