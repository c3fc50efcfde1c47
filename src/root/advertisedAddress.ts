import { networkInterfaces } from 'node:os';
import { connectableHost, isWildcardHost } from '../config/listenHost';
import type { SimulatorConfig } from '../config/simulatorConfig';

/**
 * Where the URLs of a started simulator point (docs/shared-host.md): `public-url` (`--public-url`
 * for everyone), `host-header` (a wildcard `--host`: the API hands each client URLs at the Host it
 * used), or `listen-address` (one address, the default 127.0.0.1: the chains' own URLs).
 */
export type PublicUrlFrom = 'public-url' | 'host-header' | 'listen-address';

/** What the start summary and `--json` print: the API's URL and the hostname of the chain URLs (undefined: as the chains listen). */
export interface AdvertisedAddress {
  publicUrlFrom: PublicUrlFrom;
  baseUrl: string;
  chainHostname: string | undefined;
}

/**
 * The address the summary shows. On a wildcard host the API follows each client's Host header, so
 * there is no one answer: the summary shows this machine's first non-loopback IPv4 address (from
 * `os.networkInterfaces()`), which other machines on its network can reach, or loopback when it has none.
 */
export function advertisedAddress(config: Pick<SimulatorConfig, 'host' | 'publicUrl'>, apiPort: number): AdvertisedAddress {
  if (config.publicUrl) return { publicUrlFrom: 'public-url', baseUrl: config.publicUrl.replace(/\/$/, ''), chainHostname: new URL(config.publicUrl).hostname };
  if (isWildcardHost(config.host)) {
    const hostname = firstNonLoopbackIpv4() ?? '127.0.0.1';
    return { publicUrlFrom: 'host-header', baseUrl: `http://${hostname}:${apiPort}`, chainHostname: hostname };
  }
  return { publicUrlFrom: 'listen-address', baseUrl: `http://${connectableHost(config.host)}:${apiPort}`, chainHostname: undefined };
}

/** This machine's first IPv4 address that is not loopback, in `os.networkInterfaces()` order. */
export function firstNonLoopbackIpv4(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    const found = addresses?.find((address) => address.family === 'IPv4' && !address.internal);
    if (found) return found.address;
  }
  return undefined;
}
