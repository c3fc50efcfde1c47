import { z } from 'zod';
import { StepSchema } from './quoteResponseSchema';

/** `{ message }`: fast fill, transaction index hints. */
export const MessageResponseSchema = z.object({ message: z.string() });

/** `POST /execute` and `/execute/permits`: accepted, the request it moves. */
export const ExecuteAcceptedSchema = z.object({ message: z.string(), requestId: z.string() });

/** `POST /app-fees/{wallet}/claims/{claimId}/signature`: the claim paid on chain. */
export const AppFeeClaimPaidSchema = z.object({ message: z.string(), claimId: z.string(), status: z.string(), txHash: z.string(), chainId: z.number().int() });

/** `POST /authorize`: the signature step to sign, or (with the signature) the stored mapping. */
export const AuthorizeResponseSchema = z.union([
  z.object({ steps: z.array(StepSchema) }),
  z.object({ message: z.literal('Authorized'), requestId: z.string(), wallet: z.string(), depositor: z.string(), nonce: z.string() }),
]);

/** SPEC §7 (the body of every 4xx and 5xx answer): `statusCode` too, as the official SDK reads it there. */
export function errorEnvelopeSchema(codes: readonly string[]) {
  return z.looseObject({ errorCode: z.enum(codes as [string, ...string[]]), message: z.string(), statusCode: z.number().int() });
}
