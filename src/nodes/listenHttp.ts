import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectableHost } from '../config/listenHost';

/** An HTTP server of the node, listening: its base URL (loopback for a wildcard host) and how to close it (open connections dropped). */
export interface ListeningHttp {
  url: string;
  close(): Promise<void>;
}

/** Starts an HTTP server for `handle` on `host` and `port` (default: a free one). */
export async function listenHttp(handle: (req: IncomingMessage, res: ServerResponse) => void, options: { host: string; port?: number }): Promise<ListeningHttp> {
  const http: Server = createServer(handle);
  const port = await new Promise<number>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 0, options.host, () => resolve((http.address() as AddressInfo).port));
  });
  return {
    url: `http://${connectableHost(options.host)}:${port}`,
    close: async () => {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
