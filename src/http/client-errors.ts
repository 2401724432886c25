import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a refused client may go on sending before its socket is closed regardless. */
const LINGER_MS = 1000;

const STATUS_LINES: Record<string, string> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * Requests Node's parser refuses before the app sees them (a request line or headers over the
 * 16 KiB limit, malformed HTTP, a request too slow): the status Node would send, then the socket is
 * half-closed and what the client still sends is read and dropped for a moment. Node 24's own
 * handler closes at once; a client still writing a long URL then gets a reset instead of the 431
 * (docs/operations.md, "Requests Node refuses").
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || socket.bytesWritten > 0) {
      socket.destroy();
      return;
    }
    const status = STATUS_LINES[error.code ?? ''] ?? '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}
