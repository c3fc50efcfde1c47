import { z } from 'zod';
import { ConfigurationError } from '../../errors/IntentsimError';
import { StepBoundReached, withinWallTime } from '../stepBounds';

/** Input a replay cannot work from (a bad id, a record not found, an upstream that does not answer): one line, exit code 2. */
export class ReplayInputError extends ConfigurationError {}

/** How long the deployment replayed from may take to answer one call. */
const FETCH_TIMEOUT_SECONDS = 10;

/** A request id as the service makes them: 32 bytes in hex. */
const REQUEST_ID = /^0x[0-9a-fA-F]{64}$/;

const TransactionEntrySchema = z
  .object({
    txHash: z.string(),
    type: z.string().optional(),
    chainId: z.number(),
    block: z.number().nullable().optional(),
    timestamp: z.number().nullable().optional(),
    status: z.string().optional(),
  })
  .passthrough();

const RecordCurrencySchema = z.object({ currency: z.object({ chainId: z.number(), address: z.string(), symbol: z.string().optional() }).passthrough(), amount: z.string().optional() }).passthrough();

/** The parts of a SPEC §2.3 record a replay reads (a record from any deployment). */
const UpstreamRecordSchema = z
  .object({
    id: z.string(),
    status: z.string(),
    user: z.string(),
    recipient: z.string().nullable().optional(),
    depositAddress: z.object({ address: z.string().optional() }).passthrough().nullable().optional(),
    data: z
      .object({
        failReason: z.string().nullable().optional(),
        refundFailReason: z.string().nullable().optional(),
        inTxs: z.array(TransactionEntrySchema).default([]),
        outTxs: z.array(TransactionEntrySchema).default([]),
        metadata: z.object({ currencyIn: RecordCurrencySchema, currencyOut: RecordCurrencySchema }).passthrough(),
      })
      .passthrough(),
  })
  .passthrough();

export type UpstreamRecord = z.infer<typeof UpstreamRecordSchema>;
export type UpstreamTransaction = z.infer<typeof TransactionEntrySchema>;

/** A SPEC §2.1 chain as a replay reads it. */
const UpstreamChainSchema = z
  .object({
    id: z.number(),
    vmType: z.string().optional(),
    httpRpcUrl: z.string().optional(),
    solverAddresses: z.array(z.string()).default([]),
  })
  .passthrough();

export type UpstreamChain = z.infer<typeof UpstreamChainSchema>;

/** The innermost reason of a failed fetch: a socket's error code (ECONNREFUSED), else its message. */
function reasonOf(error: unknown): string {
  for (let cause: unknown = error; cause instanceof Error; cause = cause.cause) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (cause instanceof StepBoundReached) return `no answer within ${FETCH_TIMEOUT_SECONDS} s`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** GETs a JSON body from the deployment; any failure is one line naming it. */
async function getJson(url: URL, headers: Record<string, string>, what: string): Promise<unknown> {
  let response: Response;
  let text: string;
  try {
    [response, text] = await withinWallTime(
      fetch(url, { headers }).then(async (answer) => [answer, await answer.text()] as const),
      FETCH_TIMEOUT_SECONDS,
      `${what} at ${url.origin}`,
    );
  } catch (error) {
    throw new ReplayInputError(`could not reach ${url.origin} for ${what} (${reasonOf(error)})`, { cause: error });
  }
  if (!response.ok) {
    const detail = (() => {
      try {
        const body = JSON.parse(text) as { errorCode?: string; message?: string };
        return [body.errorCode, body.message].filter(Boolean).join(': ');
      } catch {
        return text.slice(0, 200);
      }
    })();
    throw new ReplayInputError(`${url.origin} answered ${response.status} to ${what}${detail ? ` (${detail})` : ''}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ReplayInputError(`${url.origin} answered ${what} with something other than JSON`, { cause: error });
  }
}

/** The deployment's base URL (`--from`), checked: http(s) only. */
function baseUrlOf(from: string): URL {
  let base: URL;
  try {
    base = new URL(from.endsWith('/') ? from : `${from}/`);
  } catch {
    throw new ReplayInputError(`--from ${JSON.stringify(from)} is not a URL`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new ReplayInputError(`--from ${base.origin}: only http: and https: URLs are read`);
  return base;
}

/** A record as a deployment answered it, checked against the parts a replay reads. */
export function parseUpstreamRecord(raw: unknown, requestId: string): UpstreamRecord {
  const record = UpstreamRecordSchema.safeParse(raw);
  if (!record.success) {
    const issue = record.error.issues[0]!;
    throw new ReplayInputError(`the record of ${requestId} is not a request record (SPEC §2.3): ${issue.path.join('.')}: ${issue.message}`);
  }
  return record.data;
}

/** The deployment's chains (`GET /chains`, SPEC §4.4): each one's kind, RPC URL and solver. */
export async function fetchUpstreamChains(from: string): Promise<UpstreamChain[]> {
  const base = baseUrlOf(from);
  const chains = z.object({ chains: z.array(UpstreamChainSchema) }).safeParse(await getJson(new URL('chains', base), {}, 'GET /chains'));
  if (!chains.success) throw new ReplayInputError(`${base.origin} answered GET /chains without a list of chains (SPEC §2.1)`);
  return chains.data.chains;
}

/**
 * Reads the one record (`GET /requests/v3?id=`, with `x-api-key` when given, SPEC §4.3, §5) and
 * the deployment's chains (`GET /chains`, SPEC §4.4) a replay starts from.
 */
export async function fetchUpstreamRecord(params: { requestId: string; from: string; apiKey?: string }): Promise<{ record: UpstreamRecord; chains: UpstreamChain[] }> {
  if (!REQUEST_ID.test(params.requestId)) throw new ReplayInputError(`not a request id: ${JSON.stringify(params.requestId)} (expected 0x and 64 hex digits)`);
  const base = baseUrlOf(params.from);
  const recordUrl = new URL('requests/v3', base);
  recordUrl.searchParams.set('id', params.requestId);
  const headers: Record<string, string> = params.apiKey ? { 'x-api-key': params.apiKey } : {};
  const page = await getJson(recordUrl, headers, `GET /requests/v3?id=${params.requestId}`);
  const first = (page as { requests?: unknown[] }).requests?.find((record) => (record as { id?: unknown }).id === params.requestId);
  if (first === undefined) throw new ReplayInputError(`request ${params.requestId} not found at ${base.origin}`);
  const record = parseUpstreamRecord(first, params.requestId);
  return { record, chains: await fetchUpstreamChains(params.from) };
}
