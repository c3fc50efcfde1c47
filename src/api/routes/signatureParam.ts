import { z } from 'zod';
import type { Hex } from 'viem';
import { InvalidRequestBodyError } from '../../errors/requestErrors';

/** A signature at the JSON edge: 0x hex, 1 to 1024 bytes. */
export const SignatureSchema = z.string().regex(/^0x([0-9a-fA-F]{2}){1,1024}$/, 'must be a 0x-prefixed hex signature');

/**
 * Where a signature step's post carries the signature: the official SDK sends it as the query
 * parameter `signature` (`signatureStep.js`); a client may put it in the body instead. Both given
 * and different is a 400.
 */
export function signatureOf(query: unknown, body: { signature?: string | undefined }): Hex | undefined {
  const raw = (query as Record<string, unknown> | undefined)?.signature;
  if (raw !== undefined && typeof raw !== 'string') throw new InvalidRequestBodyError('Invalid request: query signature: must be one 0x-prefixed hex signature');
  const fromQuery = raw === undefined ? undefined : SignatureSchema.safeParse(raw);
  if (fromQuery && !fromQuery.success) throw new InvalidRequestBodyError('Invalid request: query signature: must be a 0x-prefixed hex signature');
  const querySignature = fromQuery?.data;
  if (querySignature !== undefined && body.signature !== undefined && querySignature.toLowerCase() !== body.signature.toLowerCase()) {
    throw new InvalidRequestBodyError('Invalid request: the query and the body carry different signatures');
  }
  return (querySignature ?? body.signature) as Hex | undefined;
}
