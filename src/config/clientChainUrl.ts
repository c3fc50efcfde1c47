import type { ChainDescription } from '../domain/chain/chainDescription';
import { isLoopbackHost, isWildcardHost } from './listenHost';

/**
 * The one place a chain's listening URL becomes the URL a client is handed (`GET /chains`, the
 * start summary, `--json`; docs/shared-host.md): with a public hostname (the `--public-url`'s, or the
 * Host a client reached the API by on a wildcard `--host`), a URL on loopback or a wildcard gets that
 * hostname and keeps its own port and path; any other URL (a node attached at its own address) and
 * every URL without a public hostname is handed out as it is.
 */
export function clientChainUrl(listeningUrl: string, publicHostname: string | undefined): string {
  if (!publicHostname || !URL.canParse(listeningUrl)) return listeningUrl;
  const url = new URL(listeningUrl);
  if (!isLoopbackHost(url.hostname) && !isWildcardHost(url.hostname)) return listeningUrl;
  url.hostname = publicHostname.includes(':') && !publicHostname.startsWith('[') ? `[${publicHostname}]` : publicHostname;
  // URL adds a `/` to a bare origin; the listening URL had none
  return listeningUrl.endsWith('/') || url.pathname !== '/' ? url.toString() : url.toString().replace(/\/$/, '');
}

/** What a chain describes, its client URLs (RPC, websocket, e.g. Esplora) as `clientChainUrl` hands them out. */
export function describedForClient(described: ChainDescription, publicHostname: string | undefined): ChainDescription {
  if (!publicHostname) return described;
  const clientUrls = Object.entries(described.clientUrls ?? {});
  // the summary's note names them too (Bitcoin's Esplora URL)
  const note = clientUrls.reduce((text, [, url]) => text.replaceAll(url, clientChainUrl(url, publicHostname)), described.fundedAccountsNote ?? '');
  return {
    ...described,
    httpRpcUrl: clientChainUrl(described.httpRpcUrl, publicHostname),
    wsRpcUrl: clientChainUrl(described.wsRpcUrl, publicHostname),
    ...(described.clientUrls ? { clientUrls: Object.fromEntries(clientUrls.map(([name, url]) => [name, clientChainUrl(url, publicHostname)])) } : {}),
    ...(described.fundedAccountsNote === undefined ? {} : { fundedAccountsNote: note }),
  };
}
