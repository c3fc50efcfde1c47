import { ruleBroken } from './check';
import { expectErrorBody } from './expectations';
import type { Exchange } from './http';

/**
 * A refusal where the SPEC names no status code: any 4xx (never a 5xx, never a 2xx) whose body
 * carries `errorCode` and a message.
 */
export function expectClientError(exchange: Exchange, rule: string): { errorCode: string; message: string } {
  if (exchange.status < 400 || exchange.status >= 500) ruleBroken(rule, `expected a 4xx, got HTTP ${exchange.status}`, exchange);
  return expectErrorBody(exchange, exchange.status, undefined, rule);
}
