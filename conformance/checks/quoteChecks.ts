import { isAddress, recoverAddress, recoverMessageAddress, type Hex } from 'viem';
import { ruleBroken, type ConformanceCheck } from '../check';
import { expectStatus, expectThat } from '../expectations';
import { conformanceRecipient, erc20BridgeBody, nativeBridgeBody, nativeCurrencyOf, twoEvmChains } from '../quoteBodies';
import { expectClientError } from './expectClientError';
import { itemsOf, quoteOf, sameAddress } from './expectQuote';

const STATUS_PATHS = ['/intents/status/v3', '/intents/status'];

/** §2.2 quote responses and §4.1 / §4.6 quote behaviour, from quotes built out of the target's `/chains`. */
export const quoteChecks: readonly ConformanceCheck[] = [
  {
    id: 'quote.native-bridge-shape',
    section: '2.2',
    title: 'a cross-chain native bridge quote has every §2.2 field, typed as the tables say',
    mode: 'read-only',
    async run({ http, target }) {
      const { exchange, quote } = await quoteOf(http, await nativeBridgeBody(target));
      for (const step of quote.steps) {
        expectThat(step.depositAddress === '', '§2.2: step.depositAddress is the empty string when no deposit address is used', `step ${step.id} has depositAddress ${JSON.stringify(step.depositAddress)}`, exchange);
      }
    },
  },
  {
    id: 'quote.erc20-bridge-shape',
    section: '2.2',
    title: 'a cross-chain ERC-20 quote (approval and deposit steps) has every §2.2 field, typed as the tables say',
    mode: 'read-only',
    async run({ http, target }) {
      await quoteOf(http, await erc20BridgeBody(target));
    },
  },
  {
    id: 'quote.check-endpoint',
    section: '2.2',
    title: "a step item's check.endpoint is the status path with the step's requestId, and answers",
    mode: 'read-only',
    async run({ http, target }) {
      const { exchange, quote } = await quoteOf(http, await nativeBridgeBody(target));
      const rule = '§2.2: check.endpoint is the path of the status check with the requestId as query';
      for (const { step, item } of itemsOf(quote)) {
        if (!item.check) continue;
        const url = new URL(item.check.endpoint, 'http://target.invalid');
        expectThat(STATUS_PATHS.some((path) => url.pathname.endsWith(path)), rule, `endpoint ${item.check.endpoint} is not ${STATUS_PATHS.join(' or ')}`, exchange);
        expectThat(url.searchParams.get('requestId') === step.requestId, rule, `endpoint ${item.check.endpoint} does not carry requestId=${step.requestId}`, exchange);
        const status = await http.get(url.pathname, { query: Object.fromEntries(url.searchParams) });
        expectStatus(status, 200, '§4.2: following check.endpoint answers the status of the quoted request');
      }
    },
  },
  {
    id: 'quote.request-id-lookup',
    section: '2.2',
    title: 'the requestId of each step looks the request up on GET /intents/status/v3',
    mode: 'read-only',
    async run({ http, target }) {
      const { quote } = await quoteOf(http, await nativeBridgeBody(target));
      for (const requestId of new Set(quote.steps.map((step) => step.requestId))) {
        const status = await http.get('/intents/status/v3', { query: { requestId } });
        expectStatus(status, 200, '§2.2: requestId identifies the request and is used for status lookup');
        expectThat(typeof (status.json as { status?: unknown } | undefined)?.status === 'string', '§2.4: the status lookup answers a status', 'no string status in the body', status);
      }
    },
  },
  {
    id: 'quote.evm-item-data',
    section: '2.2',
    title: 'EVM transaction items are sent by the user on the origin chain; a native deposit sends the amount',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      const { exchange, quote } = await quoteOf(http, body);
      for (const { step, item } of itemsOf(quote)) {
        if (step.kind !== 'transaction') continue;
        const data = item.data as { from: string; chainId: number; value?: string };
        expectThat(data.chainId === body.originChainId, '§2.2: an EVM transaction item is sent on the origin chain (data.chainId)', `step ${step.id}: chainId ${data.chainId}, origin ${body.originChainId}`, exchange);
        expectThat(sameAddress(data.from, body.user), '§2.2: an EVM transaction item is sent by the user (data.from)', `step ${step.id}: from ${data.from}, user ${body.user}`, exchange);
        if (step.id === 'deposit') {
          expectThat(data.value === body.amount, '§1.5/§2.2: an EXACT_INPUT native deposit sends the quoted amount as data.value', `value ${data.value}, amount ${body.amount}`, exchange);
        }
      }
    },
  },
  {
    id: 'quote.protocol-v2',
    section: '2.2',
    title: 'with includeProtocolData: true, protocol.v2 has hubType onchain, an orderSignature, and pays the origin depository',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target, { includeProtocolData: true });
      const { exchange, quote } = await quoteOf(http, body);
      const v2 = quote.protocol?.v2;
      expectThat(v2 !== undefined, '§4.1: with includeProtocolData: true, protocol.v2.orderSignature is returned', 'the quote has no protocol.v2', exchange);
      expectThat(typeof v2.orderSignature === 'string' && v2.orderSignature.length > 2, '§4.1: with includeProtocolData: true, protocol.v2.orderSignature is returned', 'no orderSignature', exchange);
      const origin = (await target.chains()).find((chain) => chain.id === body.originChainId);
      if (origin?.depository) {
        expectThat(sameAddress(v2.paymentDetails.depository, origin.depository), '§2.2: protocol.v2.paymentDetails.depository is the origin chain depository of GET /chains', `${v2.paymentDetails.depository} is not ${origin.depository}`, exchange);
      }
    },
  },
  {
    id: 'quote.order-signature-opt-in',
    section: '2.2',
    title: 'orderSignature is returned only when the request sets includeProtocolData: true',
    mode: 'read-only',
    async run({ http, target }) {
      for (const options of [{}, { includeProtocolData: false }]) {
        const { exchange, quote } = await quoteOf(http, await nativeBridgeBody(target, options));
        expectThat(quote.protocol?.v2?.orderSignature === undefined, '§2.2: orderSignature is returned only when the request sets includeProtocolData: true', `orderSignature present with ${JSON.stringify(options)}`, exchange);
      }
    },
  },
  {
    id: 'quote.order-signature-recovers',
    section: '2.2',
    title: "orderSignature is the solver's ECDSA signature over orderId",
    mode: 'read-only',
    async run({ http, target }) {
      const { exchange, quote } = await quoteOf(http, await nativeBridgeBody(target, { includeProtocolData: true }));
      const v2 = quote.protocol?.v2;
      const rule = "§2.2: orderSignature is the solver's ECDSA signature over orderId";
      if (!v2?.orderSignature) ruleBroken(rule, 'no protocol.v2.orderSignature with includeProtocolData: true', exchange);
      const solvers = [v2.orderData.solver, ...(await target.chains()).flatMap((chain) => chain.solverAddresses)].map((address) => address.toLowerCase());
      const signature = v2.orderSignature as Hex;
      const orderId = v2.orderId as Hex;
      const signers = await Promise.all([
        recoverAddress({ hash: orderId, signature }).catch(() => undefined),
        recoverMessageAddress({ message: { raw: orderId }, signature }).catch(() => undefined),
      ]);
      expectThat(signers.some((signer) => signer !== undefined && solvers.includes(signer.toLowerCase())), rule, `recovers to ${signers.filter(Boolean).join(' / ') || 'nothing'} (over the hash or as a personal message), not to the solver ${v2.orderData.solver} or a /chains solverAddress`, exchange);
    },
  },
  {
    id: 'quote.recipient-defaults-to-user',
    section: '4.1',
    title: 'with recipient omitted, the recipient is the user',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      const { exchange, quote } = await quoteOf(http, body);
      expectThat(sameAddress(quote.details.recipient, body.user), '§4.1: when recipient is omitted, the recipient is the user', `details.recipient ${quote.details.recipient}, user ${body.user}`, exchange);
      expectThat(sameAddress(quote.details.sender, body.user), '§2.2: details.sender is the quoting user', `details.sender ${quote.details.sender}, user ${body.user}`, exchange);
    },
  },
  {
    id: 'quote.explicit-recipient',
    section: '4.1',
    title: 'a valid explicit recipient is the recipient of the quote',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target, { recipient: conformanceRecipient });
      const { exchange, quote } = await quoteOf(http, body, '§4.1: a valid explicit recipient is accepted');
      expectThat(sameAddress(quote.details.recipient, conformanceRecipient), '§4.1: an explicit recipient is the recipient of the quote', `details.recipient ${quote.details.recipient}, asked for ${conformanceRecipient}`, exchange);
    },
  },
  {
    id: 'quote.exact-input',
    section: '4.1',
    title: 'EXACT_INPUT: details.currencyIn.amount is the requested amount',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      const { exchange, quote } = await quoteOf(http, body);
      expectThat(quote.details.currencyIn.amount === body.amount, '§1.5/§4.1: with tradeType EXACT_INPUT the amount sent is fixed (details.currencyIn.amount = amount)', `currencyIn.amount ${quote.details.currencyIn.amount}, amount ${body.amount}`, exchange);
    },
  },
  {
    id: 'quote.output-trade-types',
    section: '4.1',
    title: 'EXPECTED_OUTPUT is quoted; EXACT_OUTPUT quotes exactly the requested amount out',
    mode: 'read-only',
    async run({ http, target }) {
      await quoteOf(http, await nativeBridgeBody(target, { tradeType: 'EXPECTED_OUTPUT' }), '§4.1: tradeType EXPECTED_OUTPUT is quoted');
      const body = await nativeBridgeBody(target, { tradeType: 'EXACT_OUTPUT' });
      const { exchange, quote } = await quoteOf(http, body, '§4.1: tradeType EXACT_OUTPUT is quoted');
      expectThat(quote.details.currencyOut.amount === body.amount, '§1.5/§4.1: with tradeType EXACT_OUTPUT the exact amount to receive is given (details.currencyOut.amount = amount)', `currencyOut.amount ${quote.details.currencyOut.amount}, amount ${body.amount}`, exchange);
    },
  },
  {
    id: 'quote.currencies-match-request',
    section: '4.1',
    title: "currencyIn / currencyOut are the requested chains and currencies; the zero address is the chain's native currency",
    mode: 'read-only',
    async run({ http, target }) {
      const [origin, destination] = await twoEvmChains(target);
      const body = await nativeBridgeBody(target);
      const { exchange, quote } = await quoteOf(http, body);
      const rule = '§4.1: the quote is for the requested originChainId/originCurrency and destinationChainId/destinationCurrency';
      const { currencyIn, currencyOut } = quote.details;
      expectThat(currencyIn.currency.chainId === body.originChainId && sameAddress(currencyIn.currency.address, body.originCurrency), rule, `currencyIn is ${currencyIn.currency.address} on ${currencyIn.currency.chainId}`, exchange);
      expectThat(currencyOut.currency.chainId === body.destinationChainId && sameAddress(currencyOut.currency.address, body.destinationCurrency), rule, `currencyOut is ${currencyOut.currency.address} on ${currencyOut.currency.chainId}`, exchange);
      const nativeRule = "§4.1: a zero address denotes the chain's native EVM currency (GET /chains currency)";
      for (const [side, chain] of [[currencyIn, origin], [currencyOut, destination]] as const) {
        const native = nativeCurrencyOf(chain);
        expectThat(side.currency.symbol === native.symbol && side.currency.decimals === native.decimals, nativeRule, `chain ${chain.id}: ${side.currency.symbol}/${side.currency.decimals} decimals, /chains says ${native.symbol}/${native.decimals}`, exchange);
      }
    },
  },
  {
    id: 'quote.strict-needs-refund-to',
    section: '4.1',
    title: 'useDepositAddress with strict: true and no refundTo is refused with an error body',
    mode: 'read-only',
    async run({ http, target }) {
      const exchange = await http.post('/quote/v2', await nativeBridgeBody(target, { useDepositAddress: true, strict: true }));
      expectClientError(exchange, '§4.1: with useDepositAddress and strict: true, refundTo is required');
    },
  },
  {
    id: 'quote.deposit-address',
    section: '4.6',
    title: 'with useDepositAddress, a step carries the deposit address (an address of the EVM origin chain)',
    mode: 'read-only',
    async run({ http, target }) {
      const { exchange, quote } = await quoteOf(http, await nativeBridgeBody(target, { useDepositAddress: true }), '§4.1: a quote with useDepositAddress is answered');
      const addresses = quote.steps.map((step) => step.depositAddress).filter((address) => address !== '');
      const rule = "§4.6: with useDepositAddress, the step's depositAddress field carries the address";
      expectThat(addresses.length > 0, rule, 'every step has an empty depositAddress', exchange);
      for (const address of addresses) expectThat(isAddress(address, { strict: false }), rule, `${address} is not an EVM address`, exchange);
    },
  },
  {
    id: 'quote.price-shape',
    section: '4.7',
    title: 'POST /price answers a lightweight quote: a JSON object without steps or calldata',
    mode: 'read-only',
    async run({ http, target }) {
      const exchange = await http.post('/price', await nativeBridgeBody(target));
      expectStatus(exchange, 200, '§4.7: POST /price answers a lightweight quote');
      const body = exchange.json;
      expectThat(typeof body === 'object' && body !== null && !Array.isArray(body), '§4.7: POST /price answers a lightweight quote', 'the body is not a JSON object', exchange);
      expectThat(!('steps' in body), '§4.7: POST /price is a lightweight quote without calldata or steps', 'the body has steps', exchange);
    },
  },
  {
    id: 'quote.old-protocol-flag-ignored',
    section: '9',
    title: 'includeProtocolSignature (renamed includeProtocolData on 2026-07-02) is not honoured',
    mode: 'read-only',
    async run({ http, target }) {
      const exchange = await http.post('/quote/v2', await nativeBridgeBody(target, { includeProtocolSignature: true }));
      const rule = '§9: includeProtocolSignature was renamed includeProtocolData; the old name is not honored';
      if (exchange.status !== 200) {
        expectClientError(exchange, rule);
        return;
      }
      const signature = (exchange.json as { protocol?: { v2?: { orderSignature?: unknown } } } | undefined)?.protocol?.v2?.orderSignature;
      expectThat(signature === undefined, rule, 'orderSignature returned for includeProtocolSignature: true', exchange);
    },
  },
];
