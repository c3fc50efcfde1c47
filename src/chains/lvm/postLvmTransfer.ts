import { ChainError } from '../../errors/IntentsimError';

/** A transfer action as the exchange's API takes it (SPEC §4.6 `data.action`): numbers as JSON integers. */
export interface LvmTransferAction {
  type: 'transfer';
  parameters: Record<string, unknown>;
}

/**
 * A user's wallet submits a transfer as an integrator does: `POST /api/v1/transfer` on the
 * exchange's own HTTP API, with the sending account's API key (docs/chains/lighter.md,
 * chain"). The API's refusal (`{ errorCode, message }` with a 4xx) becomes a ChainError naming it.
 */
export async function postLvmTransfer(apiUrl: string, apiKey: string, accountIndex: number, action: LvmTransferAction): Promise<{ txHash: string; blockHeight: number }> {
  const response = await fetch(`${apiUrl}/api/v1/transfer`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ accountIndex, action }),
  });
  const answer = (await response.json()) as { tx_hash?: string; block_height?: number; errorCode?: string; message?: string };
  if (!response.ok || typeof answer.tx_hash !== 'string' || typeof answer.block_height !== 'number') {
    throw new ChainError(`the exchange refused the transfer: ${response.status} ${answer.errorCode ?? ''}: ${answer.message ?? JSON.stringify(answer)}`);
  }
  return { txHash: answer.tx_hash, blockHeight: answer.block_height };
}
