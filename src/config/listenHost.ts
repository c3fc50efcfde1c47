/**
 * What an address a server listens on means to its clients: loopback (this machine only), a
 * wildcard (every interface), or one address of its own. The chains' servers, the admin guard and
 * the URLs the API hands out (docs/shared-host.md) all ask here.
 */

/** Hosts that only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127(\.[0-9]{1,3}){3}$/.test(bare);
}

/** Hosts that mean "every interface" when listening (`--host 0.0.0.0`, `--host ::`). */
export function isWildcardHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === '0.0.0.0' || bare === '::';
}

/** The host this machine connects to for a server listening on `host`: loopback for a wildcard. */
export function connectableHost(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '0.0.0.0') return '127.0.0.1';
  if (bare === '::') return '[::1]';
  return bare.includes(':') ? `[${bare}]` : bare;
}
