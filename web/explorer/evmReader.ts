import { createPublicClient, decodeEventLog, decodeFunctionData, erc20Abi, formatUnits, http, type Abi, type Address, type Hex, type PublicClient } from 'viem';
import { knownContracts, type ChainInfo } from './api';
import { facts, h, statusBadge } from './dom';
import type { ChainReader } from './chainPages';
import { addressLink, blockLink, transactionLink } from './links';

/** How many recent blocks an address page searches for the address's transactions (local chains are short). */
const ADDRESS_SCAN_BLOCKS = 200n;

const clients = new Map<number, PublicClient>();

function client(chain: ChainInfo): PublicClient {
  let existing = clients.get(chain.id);
  if (!existing) {
    existing = createPublicClient({ transport: http(chain.httpRpcUrl) });
    clients.set(chain.id, existing);
  }
  return existing;
}

function stringify(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item), 2);
}

async function abis(): Promise<Array<{ name: string; abi: Abi }>> {
  return [...(await knownContracts()).contracts.map((contract) => ({ name: contract.name, abi: contract.abi as Abi })), { name: 'ERC20', abi: erc20Abi }];
}

/** The call decoded against the first known ABI that has its selector. */
async function decodeCall(input: Hex): Promise<Node> {
  if (input === '0x') return document.createTextNode('(no calldata: a plain transfer)');
  for (const { name, abi } of await abis()) {
    try {
      const decoded = decodeFunctionData({ abi, data: input });
      return h('div', {}, h('code', { 'data-testid': 'decoded-call' }, `${name}.${decoded.functionName}`), h('pre', { class: 'json' }, stringify(decoded.args ?? [])));
    } catch {
      // not this contract's function
    }
  }
  return document.createTextNode('(no known ABI has this selector)');
}

async function decodeLog(log: { topics: readonly Hex[]; data: Hex }): Promise<string> {
  for (const { name, abi } of await abis()) {
    try {
      const decoded = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data });
      return `${name}.${decoded.eventName} ${stringify(decoded.args)}`;
    } catch {
      // not this contract's event
    }
  }
  return `(unknown event) topics ${log.topics.join(', ')} data ${log.data}`;
}

function nativeAmount(chain: ChainInfo, wei: bigint): string {
  return `${formatUnits(wei, chain.currency.decimals)} ${chain.currency.symbol}`;
}

export const evmReader: ChainReader = {
  async transaction(chain, hash, labels) {
    const rpc = client(chain);
    const tx = await rpc.getTransaction({ hash: hash as Hex });
    const receipt = await rpc.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
    const logs = receipt ? await Promise.all(receipt.logs.map(async (log) => h('li', {}, addressLink(chain, log.address, labels), h('pre', { class: 'json' }, await decodeLog(log))))) : [];
    return [
      facts([
        ['status', receipt ? statusBadge(receipt.status, 'tx-status') : statusBadge('pending', 'tx-status')],
        ['block', tx.blockNumber === null ? 'pending' : blockLink(chain, tx.blockNumber)],
        ['from', addressLink(chain, tx.from, labels)],
        ['to', addressLink(chain, tx.to, labels)],
        ['value', nativeAmount(chain, tx.value)],
        ['gas used', receipt ? receipt.gasUsed.toString() : '—'],
        ['fee', receipt ? nativeAmount(chain, receipt.gasUsed * receipt.effectiveGasPrice) : '—'],
        ['nonce', String(tx.nonce)],
        ['call', await decodeCall(tx.input)],
        ['input', h('code', { class: 'wrap' }, tx.input)],
      ]),
      h('h2', {}, `Logs (${logs.length})`),
      h('ol', { class: 'logs' }, ...logs),
    ];
  },

  async address(chain, address, labels) {
    const rpc = client(chain);
    const account = address as Address;
    const [native, code, tokenBalances, latest] = await Promise.all([
      rpc.getBalance({ address: account }),
      rpc.getCode({ address: account }),
      Promise.all(chain.erc20Currencies.map(async (token) => [token, await rpc.readContract({ address: token.address as Address, abi: erc20Abi, functionName: 'balanceOf', args: [account] }).catch(() => undefined)] as const)),
      rpc.getBlockNumber(),
    ]);
    const first = latest >= ADDRESS_SCAN_BLOCKS ? latest - ADDRESS_SCAN_BLOCKS + 1n : 0n;
    const blocks = await Promise.all(Array.from({ length: Number(latest - first + 1n) }, (_, index) => rpc.getBlock({ blockNumber: latest - BigInt(index), includeTransactions: true })));
    const lower = address.toLowerCase();
    const mine = blocks.flatMap((block) => block.transactions.filter((tx) => tx.from.toLowerCase() === lower || tx.to?.toLowerCase() === lower));
    return [
      facts([
        ['label', labels[lower] ?? '—'],
        ['kind', code && code !== '0x' ? 'contract' : 'account'],
        [chain.currency.symbol, h('span', { 'data-testid': 'native-balance' }, nativeAmount(chain, native))],
        ...tokenBalances.map(([token, balance]): [string, string] => [token.symbol, balance === undefined ? '—' : formatUnits(balance, token.decimals)]),
      ]),
      h('h2', {}, `Transactions in the last ${latest - first + 1n} blocks (${mine.length})`),
      h(
        'table',
        { class: 'list' },
        h('thead', {}, h('tr', {}, h('th', {}, 'hash'), h('th', {}, 'block'), h('th', {}, 'from'), h('th', {}, 'to'), h('th', {}, 'value'))),
        h('tbody', {}, ...mine.map((tx) => h('tr', {}, h('td', {}, transactionLink(chain, tx.hash)), h('td', {}, blockLink(chain, tx.blockNumber)), h('td', {}, addressLink(chain, tx.from, labels)), h('td', {}, addressLink(chain, tx.to, labels)), h('td', {}, nativeAmount(chain, tx.value))))),
      ),
    ];
  },

  async block(chain, block, labels) {
    const rpc = client(chain);
    const found = await rpc.getBlock({ blockNumber: BigInt(block), includeTransactions: true });
    return [
      facts([
        ['hash', h('code', {}, found.hash ?? 'pending')],
        ['parent', found.number > 0n ? blockLink(chain, found.number - 1n) : '—'],
        ['time', new Date(Number(found.timestamp) * 1000).toISOString()],
        ['gas used', found.gasUsed.toString()],
        ['next', blockLink(chain, found.number + 1n)],
      ]),
      h('h2', {}, `Transactions (${found.transactions.length})`),
      h('ol', { class: 'list' }, ...found.transactions.map((tx) => h('li', {}, transactionLink(chain, tx.hash), ' from ', addressLink(chain, tx.from, labels), ' to ', addressLink(chain, tx.to, labels)))),
    ];
  },

  async latestBlock(chain) {
    return (await client(chain).getBlockNumber()).toString();
  },
};
