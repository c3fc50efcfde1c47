import type { IncomingMessage } from 'node:http';
import { ChainError } from '../errors/IntentsimError';

/** A request body over the limit a chain's own server takes. */
export class RequestBodyTooLargeError extends ChainError {
  constructor(readonly maxBytes: number) {
    super(`the body is over ${maxBytes} bytes`);
  }
}

/**
 * The body of a request to one of the chains' own servers (the Solana and Bitcoin JSON-RPCs, the
 * exchange's API), as UTF-8, refused past `maxBytes`: the rest is drained unread, so the server
 * can still answer.
 */
export function readRequestBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
        reject(new RequestBodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** A JSON-RPC request's body parsed, or undefined when it is over `maxBytes` or not JSON (the RPC's parse error). */
export async function readJsonRpcBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  try {
    return JSON.parse(await readRequestBody(req, maxBytes)) as unknown;
  } catch {
    return undefined;
  }
}
