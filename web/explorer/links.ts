import { explorerLink, type ChainInfo } from './api';
import { h } from './dom';

/** An address as a link to its page, with the simulator's label for it when it has one. */
export function addressLink(chain: ChainInfo, address: string | null | undefined, labels: Record<string, string>): Node {
  if (!address) return document.createTextNode('—');
  const label = labels[address.toLowerCase()];
  return h('span', {}, h('a', { href: explorerLink(chain, 'address', address), title: address }, h('code', {}, address)), label ? h('span', { class: 'label' }, ` ${label}`) : null);
}

export function transactionLink(chain: ChainInfo, hash: string): Node {
  return h('a', { href: explorerLink(chain, 'transaction', hash), title: hash }, h('code', {}, hash));
}

export function blockLink(chain: ChainInfo, block: string | number | bigint): Node {
  return h('a', { href: explorerLink(chain, 'block', String(block)) }, String(block));
}
