import { isAddress, zeroAddress } from 'viem';
import { skipCheck, type ConformanceCheck } from '../check';
import { expectErrorBody, expectNoServerError, expectThat } from '../expectations';
import type { ConformanceHttp } from '../http';
import { amountWorthUsd, conformanceRecipient, nativeBridgeBody, nativeCurrencyOf, sameChainBody, sameChainSwapRoute, twoEvmChains, wrappedNativeOf, type QuoteBody } from '../quoteBodies';
import type { ConformanceTarget } from '../target';
import { expectClientError } from './expectClientError';
import { quoteOf } from './expectQuote';

/** SPEC §7.1: the endpoints its quote errors apply to. */
const QUOTE_ENDPOINTS = ['/quote/v2', '/price', '/quote'] as const;
const SLIPPAGE_FIELDS = ['slippageTolerance', 'latePaymentSlippageTolerance'] as const;
/** SPEC §4.1: the fields of a quote request without "optional" in their notes. */
const REQUIRED_FIELDS = ['user', 'originChainId', 'destinationChainId', 'originCurrency', 'destinationCurrency', 'amount', 'tradeType'] as const;
const TWO_TO_THE_256 = 2n ** 256n;

/** Recipients no EVM chain accepts: too short, not hex, one digit too many, an SVM address, a BVM address. */
const MALFORMED_EVM_RECIPIENTS = ['0x123', `0x${'zz'.repeat(20)}`, `0x${'a'.repeat(41)}`, 'So11111111111111111111111111111111111111112', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'];

/** Each slippage field, on each §7.1 endpoint, with each value: 400 INVALID_SLIPPAGE_TOLERANCE. */
async function expectSlippageRefused(http: ConformanceHttp, target: ConformanceTarget, values: readonly string[], rule: string): Promise<void> {
  for (const endpoint of QUOTE_ENDPOINTS) {
    for (const field of SLIPPAGE_FIELDS) {
      for (const value of values) {
        const exchange = await http.post(endpoint, await nativeBridgeBody(target, { [field]: value }));
        expectErrorBody(exchange, 400, 'INVALID_SLIPPAGE_TOLERANCE', `${rule} (${field} ${JSON.stringify(value)} on POST ${endpoint})`);
      }
    }
  }
}

/** The body with one field replaced (or removed, for `undefined`). */
function withField(body: QuoteBody, field: string, value: unknown): Record<string, unknown> {
  const changed: Record<string, unknown> = { ...body };
  if (value === undefined) delete changed[field];
  else changed[field] = value;
  return changed;
}

/** A native bridge from an EVM chain to `destination` (any VM), paid to `recipient`. */
async function bridgeTo(target: ConformanceTarget, destinationId: number, destinationCurrency: string, recipient: string): Promise<QuoteBody> {
  return { ...(await nativeBridgeBody(target)), destinationChainId: destinationId, destinationCurrency, recipient };
}

/** §7.1 quote errors from crafted requests, and the §8 limits that apply to quotes. */
export const quoteErrorChecks: readonly ConformanceCheck[] = [
  {
    id: 'quote-errors.recipient-invalid-address',
    section: '7.1',
    title: 'a recipient that is not an address of the destination VM answers 400 INVALID_ADDRESS (quote and price)',
    mode: 'read-only',
    async run({ http, target }) {
      const [, evmDestination] = await twoEvmChains(target);
      const cases: Array<{ chainId: number; currency: string; recipient: string }> = MALFORMED_EVM_RECIPIENTS.map((recipient) => ({ chainId: evmDestination.id, currency: zeroAddress, recipient }));
      // §4.6: on SVM and BVM chains EVM addresses must not be used (only where /chains lists such chains).
      for (const chain of await target.chains()) {
        if (chain.vmType !== 'svm' && chain.vmType !== 'bvm') continue;
        if (chain.disabled || !chain.currency) continue;
        cases.push({ chainId: chain.id, currency: chain.currency.address, recipient: conformanceRecipient }, { chainId: chain.id, currency: chain.currency.address, recipient: '0x123' });
      }
      for (const endpoint of ['/quote/v2', '/price']) {
        for (const { chainId, currency, recipient } of cases) {
          const exchange = await http.post(endpoint, await bridgeTo(target, chainId, currency, recipient));
          expectErrorBody(exchange, 400, 'INVALID_ADDRESS', `§7.1: an explicit recipient that fails address validation for the destination chain answers 400 INVALID_ADDRESS (${recipient} to chain ${chainId}, POST ${endpoint})`);
        }
      }
    },
  },
  {
    id: 'quote-errors.recipient-bad-checksum',
    section: '7.1',
    title: 'a mixed-case EVM recipient with a wrong EIP-55 checksum answers 400 INVALID_ADDRESS',
    mode: 'read-only',
    async run({ http, target }) {
      const [, destination] = await twoEvmChains(target);
      const letter = conformanceRecipient.slice(2).search(/[a-fA-F]/) + 2;
      const flipped = conformanceRecipient[letter]!;
      const badChecksum = `${conformanceRecipient.slice(0, letter)}${flipped === flipped.toUpperCase() ? flipped.toLowerCase() : flipped.toUpperCase()}${conformanceRecipient.slice(letter + 1)}`;
      if (isAddress(badChecksum, { strict: true })) skipCheck('could not build a mixed-case address with a wrong checksum');
      const exchange = await http.post('/quote/v2', await bridgeTo(target, destination.id, zeroAddress, badChecksum));
      expectErrorBody(exchange, 400, 'INVALID_ADDRESS', `§7.1: a recipient failing EVM address validation (EIP-55 checksum of ${badChecksum}) answers 400 INVALID_ADDRESS`);
    },
  },
  {
    id: 'quote-errors.recipient-token-contract',
    section: '7.1',
    title: "a recipient that is one of the destination chain's token contracts answers 400 INVALID_RECIPIENT (quote and price)",
    mode: 'read-only',
    async run({ http, target }) {
      const [, destination] = await twoEvmChains(target);
      const token = destination.erc20Currencies[0];
      if (!token) skipCheck(`chain ${destination.id} lists no erc20Currencies`);
      for (const endpoint of ['/quote/v2', '/price']) {
        for (const recipient of [token.address, token.address.toLowerCase()]) {
          const exchange = await http.post(endpoint, await bridgeTo(target, destination.id, zeroAddress, recipient));
          expectErrorBody(exchange, 400, 'INVALID_RECIPIENT', `§7.1: an explicit recipient that is a supported token contract answers 400 INVALID_RECIPIENT (${token.symbol} ${recipient}, POST ${endpoint})`);
        }
      }
    },
  },
  {
    id: 'quote-errors.slippage-negative',
    section: '7.1',
    title: 'a negative slippageTolerance or latePaymentSlippageTolerance answers 400 INVALID_SLIPPAGE_TOLERANCE (quote, quote/v2, price)',
    mode: 'read-only',
    async run({ http, target }) {
      await expectSlippageRefused(http, target, ['-1', '-10000'], '§7.1: a negative slippage tolerance answers 400 INVALID_SLIPPAGE_TOLERANCE');
    },
  },
  {
    id: 'quote-errors.slippage-above-max',
    section: '7.1',
    title: 'a slippage tolerance above 10000 basis points answers 400 INVALID_SLIPPAGE_TOLERANCE (quote, quote/v2, price)',
    mode: 'read-only',
    async run({ http, target }) {
      await expectSlippageRefused(http, target, ['10001', (TWO_TO_THE_256 + 1n).toString()], '§7.1: a slippage tolerance above 10000 answers 400 INVALID_SLIPPAGE_TOLERANCE');
    },
  },
  {
    id: 'quote-errors.slippage-non-integer',
    section: '7.1',
    title: 'a slippage tolerance that is not an integer string answers 400 INVALID_SLIPPAGE_TOLERANCE, never a 500 (quote, quote/v2, price)',
    mode: 'read-only',
    async run({ http, target }) {
      await expectSlippageRefused(http, target, ['1.5', 'abc', '1e3'], '§7.1: a slippage tolerance that is not an integer string answers 400 INVALID_SLIPPAGE_TOLERANCE (on POST /price too, not 500)');
    },
  },
  {
    id: 'quote-errors.slippage-bounds-accepted',
    section: '8',
    title: 'slippage tolerances "0" and "10000" are within the limit and quoted (quote/v2 and price)',
    mode: 'read-only',
    async run({ http, target }) {
      for (const endpoint of ['/quote/v2', '/price']) {
        for (const field of SLIPPAGE_FIELDS) {
          for (const value of ['0', '10000']) {
            const exchange = await http.post(endpoint, await nativeBridgeBody(target, { [field]: value }));
            expectThat(exchange.status === 200, '§8: slippageTolerance and latePaymentSlippageTolerance take integer strings from 0 to 10000 basis points', `${field} ${JSON.stringify(value)} on POST ${endpoint}: HTTP ${exchange.status}`, exchange);
          }
        }
      }
    },
  },
  {
    id: 'quote-errors.same-chain-dust',
    section: '7.1',
    title: 'a same-chain swap worth about $0.01 answers 400 AMOUNT_TOO_LOW (quote/v2 and price)',
    mode: 'read-only',
    async run({ http, target }) {
      const { chain, from, to } = await sameChainSwapRoute(target);
      const amount = await amountWorthUsd(http, chain, from, to, 10_000n);
      for (const endpoint of ['/quote/v2', '/price']) {
        const exchange = await http.post(endpoint, sameChainBody(chain, from, to, amount));
        expectErrorBody(exchange, 400, 'AMOUNT_TOO_LOW', `§7.1: a same-chain swap worth more than 0 and less than 0.05 USD answers 400 AMOUNT_TOO_LOW (${amount} ${from.symbol} → ${to.symbol} on ${chain.id}, POST ${endpoint})`);
      }
    },
  },
  {
    id: 'quote-errors.dust-wrap-accepted',
    section: '7.1',
    title: 'a same-chain wrap worth about $0.01 is quoted (wraps are accepted at any size)',
    mode: 'read-only',
    async run({ http, target }) {
      const chain = (await target.evmChains()).find((candidate) => wrappedNativeOf(candidate));
      if (!chain) skipCheck('no EVM chain lists its wrapped native token (W + native symbol)');
      const native = nativeCurrencyOf(chain);
      const wrapped = wrappedNativeOf(chain)!;
      const amount = await amountWorthUsd(http, chain, native, wrapped, 10_000n);
      const exchange = await http.post('/quote/v2', sameChainBody(chain, native, wrapped, amount));
      expectNoServerError(exchange);
      expectThat(exchange.status === 200, '§7.1: wraps are accepted at any size (the same-chain minimum does not apply)', `wrapping ${amount} ${native.symbol} into ${wrapped.symbol} on ${chain.id}: HTTP ${exchange.status}`, exchange);
    },
  },
  {
    id: 'quote-errors.same-chain-above-minimum',
    section: '8',
    title: 'a same-chain swap worth about $10 is above the same-chain minimum and quoted',
    mode: 'read-only',
    async run({ http, target }) {
      const { chain, from, to } = await sameChainSwapRoute(target);
      const amount = await amountWorthUsd(http, chain, from, to, 10_000_000n);
      await quoteOf(http, sameChainBody(chain, from, to, amount), '§8: the same-chain swap minimum rejects only USD values under 0.05: a swap worth about $10 is quoted');
    },
  },
  {
    id: 'quote-errors.malformed-json',
    section: '7.1',
    title: 'a body that is not a JSON object answers 4xx with errorCode and message, never 5xx (quote/v2 and price)',
    mode: 'read-only',
    async run({ http }) {
      for (const endpoint of ['/quote/v2', '/price']) {
        for (const rawBody of ['{"user":', '{,}', 'not json', '', '[]', 'null', '42']) {
          const exchange = await http.request('POST', endpoint, { rawBody, headers: { 'content-type': 'application/json' } });
          expectClientError(exchange, `§7.1: a malformed request body (${JSON.stringify(rawBody)} on POST ${endpoint}) answers an error with errorCode and message`);
        }
      }
    },
  },
  {
    id: 'quote-errors.wrong-types',
    section: '7.1',
    title: 'a field of the wrong type answers 4xx with errorCode and message, never 5xx',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      const wrongs: Array<[string, unknown]> = [
        ['user', 12345],
        ['originChainId', String(body.originChainId)],
        ['destinationChainId', true],
        ['originCurrency', null],
        ['destinationCurrency', 0],
        ['amount', Number(body.amount)],
        ['tradeType', 'EXACT_SOMETHING'],
        ['recipient', 12345],
        ['slippageTolerance', 50],
        ['includeProtocolData', 'yes'],
        ['useDepositAddress', 'true'],
      ];
      for (const endpoint of ['/quote/v2', '/price']) {
        for (const [field, value] of endpoint === '/quote/v2' ? wrongs : wrongs.slice(0, 7)) {
          const exchange = await http.post(endpoint, withField(body, field, value));
          expectClientError(exchange, `§4.1/§7.1: ${field} as ${JSON.stringify(value)} (not the type of §4.1) on POST ${endpoint} answers an error with errorCode and message`);
        }
      }
    },
  },
  {
    id: 'quote-errors.huge-numbers',
    section: '7.1',
    title: 'amounts of 2^256 and more, and chain ids beyond any chain, answer 4xx with errorCode, never 5xx',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      const refused: Array<Record<string, unknown>> = [
        withField(body, 'amount', TWO_TO_THE_256.toString()),
        withField(body, 'amount', (10n ** 100n).toString()),
        withField(body, 'originChainId', 2 ** 64),
        withField(body, 'destinationChainId', 1e300),
      ];
      for (const endpoint of ['/quote/v2', '/price']) {
        for (const huge of refused) {
          const exchange = await http.post(endpoint, huge);
          expectClientError(exchange, `§7.1: a number beyond uint256 or any chain id on POST ${endpoint} answers an error with errorCode and message`);
        }
        // 2^256 - 1 is a valid uint256: it may be quoted, or refused with an error body, but never a 5xx.
        const largest = await http.post(endpoint, withField(body, 'amount', (TWO_TO_THE_256 - 1n).toString()));
        if (largest.status !== 200) expectClientError(largest, `§7.1: the largest uint256 amount on POST ${endpoint} is quoted or refused with an error body`);
      }
    },
  },
  {
    id: 'quote-errors.missing-fields',
    section: '7.1',
    title: 'a quote request missing a required field answers 4xx with errorCode and message, never 5xx',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      for (const field of REQUIRED_FIELDS) {
        const exchange = await http.post('/quote/v2', withField(body, field, undefined));
        expectClientError(exchange, `§4.1/§7.1: a quote request without ${field} answers an error with errorCode and message`);
      }
      const exchange = await http.post('/price', withField(body, 'amount', undefined));
      expectClientError(exchange, '§4.1/§7.1: a price request without amount answers an error with errorCode and message');
    },
  },
  {
    id: 'quote-errors.unsupported-chain-or-currency',
    section: '7.1',
    title: 'a chain GET /chains does not list, or a currency that is not a token, answers 4xx with errorCode, never 5xx',
    mode: 'read-only',
    async run({ http, target }) {
      const body = await nativeBridgeBody(target);
      const unlisted = Math.max(...(await target.chains()).map((chain) => chain.id)) + 1_000_003;
      const cases: Array<[string, Record<string, unknown>]> = [
        [`destinationChainId ${unlisted}`, withField(body, 'destinationChainId', unlisted)],
        [`originChainId ${unlisted}`, withField(body, 'originChainId', unlisted)],
        [`originCurrency ${conformanceRecipient} (an account, not a token)`, withField(body, 'originCurrency', conformanceRecipient)],
      ];
      for (const [what, crafted] of cases) {
        const exchange = await http.post('/quote/v2', crafted);
        expectClientError(exchange, `§7.1: a quote for ${what} answers an error with errorCode and message`);
      }
    },
  },
];
