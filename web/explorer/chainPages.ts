import { chainById, explorerLink, knownContracts, type ChainInfo } from './api';
import { errorBox, facts, h, replaceChildren } from './dom';
import { evmReader } from './evmReader';
import { svmReader } from './svmReader';

/**
 * What a chain page reads from a chain's own RPC, per VM kind. A VM without a reader here still
 * gets its pages (the full hash, address or block number, and a note): its links never dead-end.
 */
export interface ChainReader {
  transaction(chain: ChainInfo, hash: string, labels: Record<string, string>): Promise<Node[]>;
  address(chain: ChainInfo, address: string, labels: Record<string, string>): Promise<Node[]>;
  block(chain: ChainInfo, block: string, labels: Record<string, string>): Promise<Node[]>;
  latestBlock(chain: ChainInfo): Promise<string>;
}

const READERS: Record<string, ChainReader> = { evm: evmReader, svm: svmReader };

type Page = 'transaction' | 'address' | 'block';

const TITLES: Record<Page, string> = { transaction: 'Transaction', address: 'Address', block: 'Block' };

async function renderChainItem(root: HTMLElement, page: Page, chainId: string, value: string): Promise<void> {
  const chain = await chainById(Number(chainId));
  if (!chain) return replaceChildren(root, errorBox(`This simulator runs no chain ${chainId}`));
  const heading = [h('h1', {}, `${TITLES[page]} `, h('code', { class: 'full-value', 'data-testid': `${page}-value` }, value)), h('p', { class: 'chain-line' }, `on ${chain.displayName} (chain ${chain.id}, ${chain.vmType}) · RPC ${chain.httpRpcUrl}`)];
  replaceChildren(root, ...heading, 'Loading…');
  const reader = READERS[chain.vmType];
  if (!reader) return replaceChildren(root, ...heading, h('p', { class: 'note' }, `The explorer has no reader for ${chain.vmType} chains yet; ask the chain's RPC (${chain.httpRpcUrl}) directly.`));
  const labels = (await knownContracts()).labels[String(chain.id)] ?? {};
  try {
    const body = await reader[page](chain, value, labels);
    replaceChildren(root, ...heading, ...body);
  } catch (error) {
    replaceChildren(root, ...heading, errorBox(error));
  }
}

export const renderTransactionPage = (root: HTMLElement, chainId: string, hash: string) => renderChainItem(root, 'transaction', chainId, hash);
export const renderAddressPage = (root: HTMLElement, chainId: string, address: string) => renderChainItem(root, 'address', chainId, address);
export const renderBlockPage = (root: HTMLElement, chainId: string, block: string) => renderChainItem(root, 'block', chainId, block);

/** `explorerUrl` itself: the chain, and a way to its latest block and to any hash, address or block. */
export async function renderChainPage(root: HTMLElement, chainId: string): Promise<void> {
  const chain = await chainById(Number(chainId));
  if (!chain) return replaceChildren(root, errorBox(`This simulator runs no chain ${chainId}`));
  const reader = READERS[chain.vmType];
  const latest = reader ? await reader.latestBlock(chain).catch(() => undefined) : undefined;
  const input = h('input', { name: 'q', placeholder: 'transaction hash, address or block number', size: 70 });
  const go = (event: Event) => {
    event.preventDefault();
    const q = input.value.trim();
    // an address is 0x and 40 hex digits (EVM), or at most 44 characters of base58 or bech32 (Solana, Bitcoin); a hash is longer
    const kind: Page = /^\d+$/.test(q) ? 'block' : /^0x[0-9a-fA-F]{40}$/.test(q) || (!q.startsWith('0x') && q.length <= 44) ? 'address' : 'transaction';
    location.assign(explorerLink(chain, kind, q));
  };
  replaceChildren(
    root,
    h('h1', {}, chain.displayName),
    facts([
      ['chain id', String(chain.id)],
      ['vm', chain.vmType],
      ['RPC', chain.httpRpcUrl],
      ['latest block', latest === undefined ? 'unknown' : h('a', { href: explorerLink(chain, 'block', latest) }, latest)],
    ]),
    h('form', { onsubmit: go, class: 'search' }, input, h('button', { type: 'submit' }, 'Open')),
  );
}
