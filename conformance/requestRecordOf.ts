import { z } from 'zod';
import { ruleBroken } from './check';
import { expectShape, expectStatus } from './expectations';
import type { ConformanceHttp, Exchange } from './http';
import { getListing } from './listRequests';

/** SPEC §2.3 transaction entry (`inTxs[]`, `outTxs[]`): the fields the lifecycle checks compare with the chain. */
const transactionEntrySchema = z.object({
  txHash: z.string(),
  block: z.number().int(),
  type: z.string(),
  chainId: z.number().int(),
  status: z.enum(['success', 'failure']),
  data: z.unknown(),
});

/** SPEC §2.3: the fields of a request record the lifecycle checks compare (the listing family judges the whole shape). */
const requestRecordSchema = z.object({
  id: z.string(),
  status: z.string(),
  data: z.object({
    failReason: z.string().nullable(),
    refundFailReason: z.string().nullable(),
    inTxs: z.array(transactionEntrySchema),
    outTxs: z.array(transactionEntrySchema),
  }),
});

export type RequestRecord = z.infer<typeof requestRecordSchema>;
export type TransactionEntry = z.infer<typeof transactionEntrySchema>;

/** The §2.3 record of one request: `GET /requests/v3?id=…` with the run's `x-api-key`. */
export async function requestRecordOf(http: ConformanceHttp, requestId: string): Promise<{ record: RequestRecord; exchange: Exchange }> {
  // as every listing call of the suite: a 429 (SPEC §8, 20 per second per key) is waited out
  const exchange = await getListing(http, { id: requestId });
  expectStatus(exchange, 200, '§4.3: GET /requests/v3 with x-api-key answers 200');
  const { requests } = expectShape(exchange, z.object({ requests: z.array(requestRecordSchema) }), '§2.3: a request record has id, status and data with failReason, refundFailReason, inTxs and outTxs');
  const record = requests.find((candidate) => sameHex(candidate.id, requestId));
  if (!record) ruleBroken('§4.3: the id filter finds the request', `no record with id ${requestId} among ${requests.length}`, exchange);
  return { record, exchange };
}

/** Hex strings compare without regard to case (addresses and hashes may come checksummed). */
export function sameHex(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}
