import { ChainError } from '../../errors/IntentsimError';
/** An answer the exchange's API gives: its HTTP status and `{ code, errorCode, message }`. */
export class LvmApiError extends ChainError {
  constructor(
    readonly status: number,
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

const ACCOUNT_INDEX = /^(0|[1-9]\d{0,14})$/;
const NON_NEGATIVE_INTEGER = /^(0|[1-9]\d{0,15})$/;

export function requiredQuery(url: URL, name: string): string {
  const value = url.searchParams.get(name);
  if (value === null || value.trim() === '') throw new LvmApiError(400, 'INVALID_PARAMETER', `query parameter ${name} is required`);
  return value.trim();
}

export function accountIndexOf(value: string, name: string): number {
  if (!ACCOUNT_INDEX.test(value)) throw new LvmApiError(400, 'INVALID_PARAMETER', `${name} must be an account index (a non-negative integer)`);
  return Number(value);
}

/** A non-negative integer query parameter (at most 2^53 − 1); `fallback` when absent (undefined: required). */
export function integerQuery(url: URL, name: string, fallback?: number): number {
  const text = url.searchParams.get(name);
  if (text === null || text.trim() === '') {
    if (fallback === undefined) throw new LvmApiError(400, 'INVALID_PARAMETER', `query parameter ${name} is required`);
    return fallback;
  }
  const value = Number(text.trim());
  if (!NON_NEGATIVE_INTEGER.test(text.trim()) || !Number.isSafeInteger(value)) throw new LvmApiError(400, 'INVALID_PARAMETER', `${name} must be a non-negative integer`);
  return value;
}

/** `limit` of a page: an integer from 1 to `max` (required, as the exchange requires it, unless `fallback`). */
export function limitQuery(url: URL, max: number, fallback?: number): number {
  const limit = integerQuery(url, 'limit', fallback);
  if (limit < 1 || limit > max) throw new LvmApiError(400, 'INVALID_PARAMETER', `limit must be an integer from 1 to ${max}`);
  return limit;
}
