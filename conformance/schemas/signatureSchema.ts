import { z } from 'zod';
import { hexString, integerString } from './common';

/** SPEC §2.5: the answer of `GET /requests/{requestId}/signature`. */
export const signatureLookupSchema = z.object({
  requestData: z.object({
    originChainId: z.number().int(),
    originUser: z.string(),
    originCurrency: z.string(),
    originAmount: integerString,
    destinationChainId: z.number().int(),
    destinationUser: z.string(),
  }),
  signature: hexString,
});

export type SignatureLookup = z.infer<typeof signatureLookupSchema>;
