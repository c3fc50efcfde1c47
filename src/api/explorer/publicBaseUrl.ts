import type { Request } from 'express';

/**
 * The base URL a client reached the API by (`http://<Host header>`), so the absolute links the
 * API hands out (the explorer's, SPEC §2.1 `explorerUrl`) open from where the client is; without
 * a Host header (HTTP/1.0), the address the connection came in on.
 */
export function publicBaseUrl(req: Request): string {
  const host = req.get('host');
  if (host && /^[A-Za-z0-9.\-:[\]]{1,300}$/.test(host)) return `${req.protocol}://${host}`;
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `${req.protocol}://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort ?? 80}`;
}
