import { z } from 'zod';
import { uint256String } from '../domain/money/uint256String';
import { TRADE_TYPES } from '../domain/quote/quoteAmounts';

/**
 * SPEC §4.1: the `POST /quote/v2` body. Types are checked here; the rules that have their own
 * §7.1 error codes (addresses, slippage, amounts per route) are checked by the quote provider
 * so they answer with those codes.
 */
export const QuoteRequestSchema = z
  .object({
    user: z.string().min(1),
    originChainId: z.number().int().positive(),
    destinationChainId: z.number().int().positive(),
    originCurrency: z.string().min(1),
    destinationCurrency: z.string().min(1),
    amount: uint256String(),
    tradeType: z.enum(TRADE_TYPES),
    recipient: z.string().min(1).optional(),
    referrer: z.string().optional(),
    useExternalLiquidity: z.boolean().optional(),
    /** SPEC §4.1, §4.6: hops of the SVM origin swap's route (SPEC recommends 4, then 3). */
    maxRouteLength: z.number().int().positive().max(64).optional(),
    /** SPEC §4.1: the sources the origin swap may use (`GET /swap-sources`). */
    includedOriginSwapSources: z.array(z.string().min(1).max(100)).max(50).optional(),
    includeProtocolData: z.boolean().optional(),
    slippageTolerance: z.unknown().optional(),
    latePaymentSlippageTolerance: z.unknown().optional(),
    useDepositAddress: z.boolean().optional(),
    /** SPEC §1.6 gasless swaps: deposit with a signature (EIP-3009) the relayer submits, where the currency takes one. */
    usePermit: z.boolean().optional(),
    strict: z.boolean().optional(),
    refundTo: z.string().optional(),
    recoveryAddress: z.string().optional(),
    explicitDeposit: z.boolean().optional(),
    /** Destination calls (the official SDK's `txs`), executed by the fill: a Call request. */
    txs: z
      .array(
        z.object({
          to: z.string().min(1),
          value: uint256String().optional(),
          data: z.string().regex(/^0x([0-9a-fA-F]{2})*$/, 'must be hex calldata').optional(),
          originalTxValue: z.string().optional(),
        }),
      )
      .optional(),
  })
  .passthrough();

export type QuoteRequest = z.infer<typeof QuoteRequestSchema>;
