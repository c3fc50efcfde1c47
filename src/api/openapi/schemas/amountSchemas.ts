import { z } from 'zod';

/** An integer in the smallest unit, as a decimal string (amounts are strings at the JSON edge). */
export const IntegerStringSchema = z.string().regex(/^-?(0|[1-9][0-9]*)$/).meta({ description: 'integer in the smallest unit, as a decimal string' });

/** A decimal string (USD values, formatted amounts, percentages). */
export const DecimalStringSchema = z.string().regex(/^-?[0-9]+(\.[0-9]+)?$/);

/** SPEC §2.2 currency of an amount object. */
export const AmountCurrencySchema = z.looseObject({
  chainId: z.number().int(),
  address: z.string(),
  symbol: z.string(),
  name: z.string(),
  decimals: z.number().int(),
  metadata: z.looseObject({ logoURI: z.string().optional(), verified: z.boolean().optional(), isNative: z.boolean().optional() }).optional(),
});

/** SPEC §2.2 amount object: `currency`, `amount` and, in the long form, the formatted, USD and minimum amounts. */
export const AmountSchema = z
  .looseObject({
    currency: AmountCurrencySchema,
    amount: IntegerStringSchema,
    amountFormatted: DecimalStringSchema.optional(),
    amountUsd: DecimalStringSchema.optional(),
    minimumAmount: IntegerStringSchema.optional(),
  })
  .meta({ id: 'Amount' });

/** `{ usd }` and `{ usd, percent }` impacts of SPEC §2.2 details. */
export const UsdSchema = z.looseObject({ usd: DecimalStringSchema });
export const UsdPercentSchema = z.looseObject({ usd: DecimalStringSchema, percent: DecimalStringSchema });
