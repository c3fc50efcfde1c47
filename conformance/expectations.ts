import type { z } from 'zod';
import { ruleBroken } from './check';
import type { Exchange } from './http';

/** The exchange answered `status`, or the rule is broken. */
export function expectStatus(exchange: Exchange, status: number | readonly number[], rule: string): void {
  const allowed = typeof status === 'number' ? [status] : status;
  if (!allowed.includes(exchange.status)) ruleBroken(rule, `expected HTTP ${allowed.join(' or ')}, got ${exchange.status}`, exchange);
}

/** Never a 5xx for anything a client sends (SPEC §7, DESIGN "never a 500 for bad input"). */
export function expectNoServerError(exchange: Exchange, rule = 'bad input never gets a 5xx'): void {
  if (exchange.status >= 500) ruleBroken(rule, `got HTTP ${exchange.status}`, exchange);
}

/** The body parses as JSON and matches `schema`; the first few zod issues, with their paths, are the detail of a failure. */
export function expectShape<S extends z.ZodType>(exchange: Exchange, schema: S, rule: string): z.infer<S> {
  if (exchange.json === undefined) ruleBroken(rule, 'the body is not JSON', exchange);
  const parsed = schema.safeParse(exchange.json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 5).map((issue) => `${issue.path.length ? issue.path.join('.') : '(body)'}: ${issue.message}`);
    ruleBroken(rule, issues.join('; '), exchange);
  }
  return parsed.data;
}

/** A §7 error: the status, a body with a string `errorCode` (the given one, when given) and a string `message`. */
export function expectErrorBody(exchange: Exchange, status: number | readonly number[], errorCode: string | readonly string[] | undefined, rule: string): { errorCode: string; message: string } {
  expectNoServerError(exchange);
  expectStatus(exchange, status, rule);
  const body = exchange.json as { errorCode?: unknown; message?: unknown } | undefined;
  if (!body || typeof body.errorCode !== 'string') ruleBroken('§7: every error body carries errorCode', 'no string errorCode in the body', exchange);
  if (typeof body.message !== 'string' || body.message.length === 0) ruleBroken('§7: every error body carries a message', 'no message in the body', exchange);
  const codes = errorCode === undefined ? undefined : typeof errorCode === 'string' ? [errorCode] : errorCode;
  if (codes && !codes.includes(body.errorCode)) ruleBroken(rule, `expected errorCode ${codes.join(' or ')}, got ${body.errorCode}`, exchange);
  return { errorCode: body.errorCode, message: body.message };
}

/** A condition of the rule held, or the rule is broken with `detail`. */
export function expectThat(condition: boolean, rule: string, detail: string, exchange?: Exchange): asserts condition {
  if (!condition) ruleBroken(rule, detail, exchange);
}
