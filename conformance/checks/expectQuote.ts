import { expectShape, expectStatus } from '../expectations';
import type { ConformanceHttp, Exchange } from '../http';
import type { QuoteBody } from '../quoteBodies';
import { evmQuoteResponseSchema, type EvmQuoteResponse } from '../schemas/quoteSchema';

/** The rule every answered quote is held to first. */
export const QUOTE_SHAPE_RULE = '§2.2: a quote response has steps, fees, details and protocol with every field, type and enum of the tables';

/** `POST /quote/v2` with `body`: 200 and a §2.2 quote response, or the rule is broken. */
export async function quoteOf(http: ConformanceHttp, body: QuoteBody, rule = '§4.1: POST /quote/v2 answers 200 with a quote response'): Promise<{ exchange: Exchange; quote: EvmQuoteResponse }> {
  const exchange = await http.post('/quote/v2', body);
  expectStatus(exchange, 200, rule);
  return { exchange, quote: expectShape(exchange, evmQuoteResponseSchema, QUOTE_SHAPE_RULE) };
}

/** Every step item of the quote with its step. */
export function itemsOf(quote: EvmQuoteResponse) {
  return quote.steps.flatMap((step) => step.items.map((item) => ({ step, item })));
}

export function sameAddress(a: unknown, b: unknown): boolean {
  return typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();
}
