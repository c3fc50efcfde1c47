import type { QuoteStep } from '../../domain/quote/quoteStep';
import type { DepositStepParams } from '../ChainAdapter';
import { LVM_TRANSFER_FEE, ROUTE_PERP, USDC_ASSET } from '../../nodes/lvm';

/**
 * The deposit step of a quote whose origin is the exchange (SPEC §2.2, §4.6 "withdrawal"): one
 * transaction item whose `data.action` is the transfer the client submits to the exchange with
 * its account's API key — to the relayer's (depository) account, USDC collateral to collateral,
 * the exchange's fee as `usdcFee`, the request id as `memo`. Parameters are JSON integers, so
 * the caller keeps `amount` within 2^53 − 1.
 */
export function buildLvmWithdrawalSteps(params: DepositStepParams & { depositoryIndex: number }): QuoteStep[] {
  return [
    {
      id: 'deposit',
      action: 'Confirm transaction in your wallet',
      description: `Transferring ${params.currency.symbol} on the exchange to the relayer to execute the request`,
      kind: 'transaction',
      items: [
        {
          status: 'incomplete',
          data: {
            action: {
              type: 'transfer',
              parameters: {
                toAccountIndex: params.depositoryIndex,
                assetIndex: USDC_ASSET.index,
                fromRouteType: ROUTE_PERP,
                toRouteType: ROUTE_PERP,
                amount: Number(params.amount),
                usdcFee: Number(LVM_TRANSFER_FEE),
                memo: params.requestId,
              },
            },
          },
          withCheck: true,
        },
      ],
    },
  ];
}
