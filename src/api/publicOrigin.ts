import type { Request } from 'express';
import { isWildcardHost } from '../config/listenHost';
import { publicBaseUrl } from './explorer/publicBaseUrl';

/** Where the URLs the API hands out point, for one client's request (docs/shared-host.md). */
export interface PublicOrigin {
  /** The API's own base URL (the explorer's links): `--public-url`, else the Host the client used. */
  baseUrl(req: Request): string;
  /** The hostname every chain URL gets (`clientChainUrl`); undefined: the chains' listening URLs as they are. */
  chainHostname(req: Request): string | undefined;
}

/**
 * With `--public-url`, its origin and hostname for every client. Else, on a wildcard `--host`
 * (0.0.0.0, ::), the hostname of the Host header the client sent, which is an address it reaches
 * this machine by; on one address (the default 127.0.0.1) the chains listen on that address
 * alone, so their URLs are handed out as they are.
 */
export function createPublicOrigin(options: { host: string; publicUrl?: string | undefined }): PublicOrigin {
  const fixed = options.publicUrl ? new URL(options.publicUrl) : undefined;
  const followsClient = !fixed && isWildcardHost(options.host);
  return {
    baseUrl: (req) => (fixed ? fixed.toString().replace(/\/$/, '') : publicBaseUrl(req)),
    chainHostname: (req) => (fixed ? fixed.hostname : followsClient ? new URL(publicBaseUrl(req)).hostname : undefined),
  };
}
