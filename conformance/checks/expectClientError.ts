import { ruleBroken } from '../check';
import { expectErrorBody, expectNoServerError } from '../expectations';
import type { Exchange } from '../http';

/**
 * Bad input the SPEC gives no error code for (malformed JSON, a wrong type, a missing field):
 * never a 5xx (§7), a 4xx status, and a §7.1 error body with `errorCode` and a message.
 */
export function expectClientError(exchange: Exchange, rule: string): { errorCode: string; message: string } {
  expectNoServerError(exchange, `${rule} (bad input never gets a 5xx)`);
  if (exchange.status < 400 || exchange.status > 499) ruleBroken(rule, `expected a 4xx status, got HTTP ${exchange.status}`, exchange);
  return expectErrorBody(exchange, exchange.status, undefined, rule);
}
