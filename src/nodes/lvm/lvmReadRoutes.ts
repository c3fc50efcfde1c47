import type { LvmLedger, LvmTransaction } from './LvmLedger';
import { blockView, transactionView } from './lvmApiViews';
import { lvmBlockAt, lvmBlockByHash, type LvmBlock } from './lvmBlocks';
import { LVM_TRANSFER_FEE } from './lvmAssets';
import { accountIndexOf, integerQuery, limitQuery, LvmApiError, requiredQuery } from './lvmApiQuery';

const TX_HASH = /^(0x)?[0-9a-fA-F]{64}$/;
const MAX_PAGE = 100;
const MAX_API_KEY_INDEX = 255;

/**
 * The exchange's read API, with the real API's parameters and field names (every answer gets
 * `code: 200` from the server):
 * - `GET /api/v1/currentHeight` — `{ height }`;
 * - `GET /api/v1/nextNonce?account_index=&api_key_index=` — `{ nonce }`, the nonce the account's next transfer takes;
 * - `GET /api/v1/block?by=height|commitment&value=` — `{ total, blocks: [block] }`;
 * - `GET /api/v1/blocks?limit=&index=&sort=asc|desc` — `{ total, blocks }` from height `index`;
 * - `GET /api/v1/tx?by=hash|sequence_index&value=` — one transaction;
 * - `GET /api/v1/txs?limit=&index=` — `{ txs }` in execution order from sequence index `index`;
 * - `GET /api/v1/accountTxs?by=account_index&value=&limit=&index=` — `{ txs }`, an account's
 *   transfers sent or received, newest first, below sequence index `index` when given;
 * - `GET /api/v1/transferFeeInfo?account_index=` — `{ transfer_fee_usdc }`.
 * Returns undefined for any other route.
 */
export function answerReadRoute(ledger: LvmLedger, route: string, url: URL): Record<string, unknown> | undefined {
  const txView = (tx: LvmTransaction) => transactionView(tx, ledger.account(tx.fromAccountIndex)?.l1Address ?? '');
  const blocksOf = (blocks: LvmBlock[]) => ({ total: blocks.length, blocks: blocks.map((block) => blockView(block, txView)) });
  switch (route) {
    case 'GET /api/v1/currentHeight':
      return { height: ledger.height };
    case 'GET /api/v1/nextNonce': {
      const index = knownAccount(ledger, requiredQuery(url, 'account_index'), 'account_index');
      if (integerQuery(url, 'api_key_index') > MAX_API_KEY_INDEX) throw new LvmApiError(400, 'INVALID_PARAMETER', `api_key_index must be from 0 to ${MAX_API_KEY_INDEX}`);
      return { nonce: ledger.account(index)!.nonce + 1 };
    }
    case 'GET /api/v1/block': {
      const by = requiredQuery(url, 'by');
      const value = requiredQuery(url, 'value');
      if (by !== 'height' && by !== 'commitment') throw new LvmApiError(400, 'INVALID_PARAMETER', `by must be height or commitment, not ${by}`);
      const block = by === 'height' ? lvmBlockAt(ledger, integerQuery(url, 'value')) : lvmBlockByHash(ledger, value);
      if (!block) throw new LvmApiError(404, 'BLOCK_NOT_FOUND', `no block with ${by} ${value} (the current height is ${ledger.height})`);
      return blocksOf([block]);
    }
    case 'GET /api/v1/blocks': {
      const limit = limitQuery(url, MAX_PAGE);
      const sort = url.searchParams.get('sort') ?? 'asc';
      if (sort !== 'asc' && sort !== 'desc') throw new LvmApiError(400, 'INVALID_PARAMETER', `sort must be asc or desc, not ${sort}`);
      const step = sort === 'asc' ? 1 : -1;
      const blocks: LvmBlock[] = [];
      for (let height = integerQuery(url, 'index', sort === 'asc' ? 1 : ledger.height); blocks.length < limit; height += step) {
        const block = lvmBlockAt(ledger, height);
        if (!block) break;
        blocks.push(block);
      }
      return blocksOf(blocks);
    }
    case 'GET /api/v1/tx': {
      const by = requiredQuery(url, 'by');
      const value = requiredQuery(url, 'value');
      let tx: LvmTransaction | undefined;
      if (by === 'hash') {
        if (!TX_HASH.test(value)) throw new LvmApiError(400, 'INVALID_PARAMETER', 'value must be a transaction hash: 64 hex characters');
        tx = ledger.transaction(value);
      } else if (by === 'sequence_index') {
        tx = ledger.transactions()[integerQuery(url, 'value') - 1];
      } else throw new LvmApiError(400, 'INVALID_PARAMETER', `by must be hash or sequence_index, not ${by}`);
      if (!tx) throw new LvmApiError(404, 'TRANSACTION_NOT_FOUND', `no transaction with ${by} ${value}`);
      return txView(tx);
    }
    case 'GET /api/v1/txs': {
      const limit = limitQuery(url, MAX_PAGE);
      const from = Math.max(integerQuery(url, 'index', 1), 1);
      return { txs: ledger.transactions().slice(from - 1, from - 1 + limit).map(txView) };
    }
    case 'GET /api/v1/accountTxs': {
      const by = requiredQuery(url, 'by');
      if (by !== 'account_index') throw new LvmApiError(400, 'INVALID_PARAMETER', `by must be account_index, not ${by}`);
      const index = knownAccount(ledger, requiredQuery(url, 'value'), 'value');
      const limit = limitQuery(url, MAX_PAGE, MAX_PAGE);
      const below = integerQuery(url, 'index', Number.MAX_SAFE_INTEGER);
      return { txs: ledger.transactionsOf(index).filter((tx) => tx.sequenceIndex < below).slice(0, limit).map(txView) };
    }
    case 'GET /api/v1/transferFeeInfo': {
      for (const name of ['account_index', 'to_account_index']) {
        const value = url.searchParams.get(name);
        if (value !== null && value.trim() !== '') knownAccount(ledger, value.trim(), name);
      }
      return { transfer_fee_usdc: Number(LVM_TRANSFER_FEE) };
    }
    default:
      return undefined;
  }
}

function knownAccount(ledger: LvmLedger, value: string, name: string): number {
  const index = accountIndexOf(value, name);
  if (!ledger.account(index)) throw new LvmApiError(404, 'ACCOUNT_NOT_FOUND', `no account ${index}`);
  return index;
}
