import type { ChainInfo } from './api';
import { facts, h, statusBadge } from './dom';
import type { ChainReader } from './chainPages';
import { addressLink, blockLink, transactionLink } from './links';

const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

/** One Solana JSON-RPC call to the simulator's SVM RPC (it answers CORS). */
async function rpc<T>(chain: ChainInfo, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(chain.httpRpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const body = (await response.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result as T;
}

interface SvmTransaction {
  slot: number;
  blockTime: number | null;
  meta: { err: unknown; fee: number; preBalances: number[]; postBalances: number[]; logMessages: string[]; preTokenBalances: TokenBalance[]; postTokenBalances: TokenBalance[] };
  transaction: { signatures: string[]; message: { accountKeys: string[]; instructions: Array<{ programIdIndex: number; accounts: number[]; data: string }> } };
}

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner?: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmountString: string };
}

function lamports(chain: ChainInfo, amount: number | bigint): string {
  const value = BigInt(amount);
  const magnitude = value < 0n ? -value : value;
  const scale = 10n ** BigInt(chain.currency.decimals);
  const fraction = (magnitude % scale).toString().padStart(chain.currency.decimals, '0').replace(/0+$/, '');
  return `${value < 0n ? '-' : ''}${magnitude / scale}${fraction ? `.${fraction}` : ''} ${chain.currency.symbol}`;
}

function tokenSymbol(chain: ChainInfo, mint: string): string {
  return chain.erc20Currencies.find((token) => token.address === mint)?.symbol ?? mint;
}

export const svmReader: ChainReader = {
  async transaction(chain, signature, labels) {
    const tx = await rpc<SvmTransaction | null>(chain, 'getTransaction', [signature, { encoding: 'json', maxSupportedTransactionVersion: 0 }]);
    if (!tx) return [h('p', { class: 'note' }, 'The chain does not know this transaction.')];
    const keys = tx.transaction.message.accountKeys;
    const balanceChanges = keys.map((key, index) => [key, BigInt(tx.meta.postBalances[index] ?? 0) - BigInt(tx.meta.preBalances[index] ?? 0)] as const).filter(([, change]) => change !== 0n);
    const tokenChanges = tx.meta.postTokenBalances.map((post) => {
      const pre = tx.meta.preTokenBalances.find((candidate) => candidate.accountIndex === post.accountIndex);
      return { owner: post.owner ?? keys[post.accountIndex]!, mint: post.mint, change: BigInt(post.uiTokenAmount.amount) - BigInt(pre?.uiTokenAmount.amount ?? '0'), decimals: post.uiTokenAmount.decimals };
    }).filter((entry) => entry.change !== 0n);
    return [
      facts([
        ['status', statusBadge(tx.meta.err === null ? 'success' : 'failure', 'tx-status')],
        ['slot', blockLink(chain, tx.slot)],
        ['fee payer', addressLink(chain, keys[0], labels)],
        ['fee', lamports(chain, tx.meta.fee)],
        ['error', tx.meta.err === null ? '—' : JSON.stringify(tx.meta.err)],
      ]),
      h('h2', {}, 'Balance changes'),
      h(
        'ul',
        {},
        ...balanceChanges.map(([key, change]) => h('li', {}, addressLink(chain, key, labels), ` ${change > 0n ? '+' : ''}${lamports(chain, change)}`)),
        ...tokenChanges.map((entry) => h('li', {}, addressLink(chain, entry.owner, labels), ` ${entry.change > 0n ? '+' : ''}${entry.change} (smallest unit, ${entry.decimals} decimals) ${tokenSymbol(chain, entry.mint)}`)),
      ),
      h('h2', {}, 'Instructions'),
      h('ol', {}, ...tx.transaction.message.instructions.map((instruction) => h('li', {}, 'program ', addressLink(chain, keys[instruction.programIdIndex], labels), ` · ${instruction.accounts.length} accounts · data ${instruction.data}`))),
      h('h2', {}, 'Logs'),
      h('pre', { class: 'json' }, tx.meta.logMessages.join('\n')),
    ];
  },

  async address(chain, address, labels) {
    const [balance, tokens, signatures] = await Promise.all([
      rpc<{ value: number }>(chain, 'getBalance', [address]),
      rpc<{ value: Array<{ pubkey: string; account: { data: { parsed: { info: { mint: string; tokenAmount: { uiAmountString: string } } } } } }> }>(chain, 'getTokenAccountsByOwner', [address, { programId: TOKEN_PROGRAM }, { encoding: 'jsonParsed' }]).catch(() => ({ value: [] })),
      rpc<Array<{ signature: string; slot: number; err: unknown }>>(chain, 'getSignaturesForAddress', [address, { limit: 50 }]),
    ]);
    return [
      facts([
        ['label', labels[address.toLowerCase()] ?? '—'],
        [chain.currency.symbol, h('span', { 'data-testid': 'native-balance' }, lamports(chain, balance.value))],
        ...tokens.value.map((token): [string, string] => [tokenSymbol(chain, token.account.data.parsed.info.mint), `${token.account.data.parsed.info.tokenAmount.uiAmountString} (account ${token.pubkey})`]),
      ]),
      h('h2', {}, `Recent transactions (${signatures.length})`),
      h('ol', { class: 'list' }, ...signatures.map((entry) => h('li', {}, transactionLink(chain, entry.signature), ' slot ', blockLink(chain, entry.slot), ' ', statusBadge(entry.err === null ? 'success' : 'failure')))),
    ];
  },

  async block(chain, slot) {
    const block = await rpc<{ blockhash: string; parentSlot: number; blockTime: number; signatures: string[] }>(chain, 'getBlock', [Number(slot), { transactionDetails: 'signatures' }]);
    return [
      facts([
        ['blockhash', h('code', {}, block.blockhash)],
        ['parent slot', blockLink(chain, block.parentSlot)],
        ['time', new Date(block.blockTime * 1000).toISOString()],
        ['next', blockLink(chain, Number(slot) + 1)],
      ]),
      h('h2', {}, `Transactions (${block.signatures.length})`),
      h('ol', { class: 'list' }, ...block.signatures.map((signature) => h('li', {}, transactionLink(chain, signature)))),
    ];
  },

  async latestBlock(chain) {
    return String(await rpc<number>(chain, 'getSlot', []));
  },
};
