import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

/** Node's own errors before a request reaches the app, each answered like any other error. */
const CLIENT_ERRORS: Record<string, { status: number; reason: string; errorCode: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', errorCode: 'HEADERS_TOO_LARGE', message: 'Request headers are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', errorCode: 'REQUEST_TIMEOUT', message: 'The request (headers and body) did not arrive in time; a body shorter than its Content-Length waits for the rest until then' },
  ERR_HTTP_HEADERS_TIMEOUT: { status: 408, reason: 'Request Timeout', errorCode: 'REQUEST_TIMEOUT', message: 'The request headers did not arrive in time' },
};
const MALFORMED = { status: 400, reason: 'Bad Request', errorCode: 'MALFORMED_HTTP_REQUEST', message: 'The request is not valid HTTP' };

/** The raw HTTP answer for a client error: JSON `{ errorCode, message, statusCode }`, then close. */
export function clientErrorResponse(code: string | undefined): string {
  const answer = (code && CLIENT_ERRORS[code]) || MALFORMED;
  const body = JSON.stringify({ errorCode: answer.errorCode, message: answer.message, statusCode: answer.status });
  return [
    `HTTP/1.1 ${answer.status} ${answer.reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/**
 * Gives Node's own 400 / 408 / 431 answers the API's error envelope (DESIGN: every 4xx carries an
 * errorCode). Without this, a malformed request, oversized headers or a request that never
 * finishes gets a bare status line from Node, or no answer at all.
 */
export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (!socket.writable || (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(error.code));
  });
}
