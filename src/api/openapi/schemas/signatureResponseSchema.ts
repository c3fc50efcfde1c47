import { z } from 'zod';
import { IntegerStringSchema } from './amountSchemas';

/** SPEC §2.5: `GET /requests/{requestId}/signature`. */
export const SignatureResponseSchema = z
  .object({
    requestData: z.object({
      originChainId: z.number().int(),
      originUser: z.string(),
      originCurrency: z.string(),
      originAmount: IntegerStringSchema,
      destinationChainId: z.number().int(),
      destinationUser: z.string(),
    }),
    signature: z.string().regex(/^0x[0-9a-fA-F]{130}$/),
  })
  .meta({ id: 'RequestSignature' });
