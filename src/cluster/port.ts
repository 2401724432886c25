import { createServer } from 'node:net';
import { StartRefusal } from '../start-refusal';

/** The operator's sentence for a failed listen; null for errors that are not about the port. */
export function portProblem(error: unknown, host: string, port: number): string | null {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    return (
      `Port ${port} on ${host} is already in use (another flagship, or another program). ` +
      `Stop that program, or choose another port, e.g. PORT=${port > 0 && port < 65535 ? port + 1 : 8000} npm start`
    );
  }
  if (code === 'EACCES') return `Not allowed to listen on port ${port} on ${host}. Choose a port above 1023: PORT=8000 npm start`;
  if (code === 'EADDRNOTAVAIL') return `HOST=${host} is not an address of this machine. Use one that is, e.g. HOST=127.0.0.1`;
  return null;
}

/**
 * Binds host:port for a moment and lets go, so a busy port is refused before anything else
 * happens: no data directory created, no database opened, no migration run. A program that takes
 * the port in the instant between this check and the real listen is still reported the same way
 * by the listen itself (src/server.ts).
 */
export async function ensurePortFree(host: string, port: number): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error) => {
      const problem = portProblem(error, host, port);
      reject(problem ? new StartRefusal(problem) : error);
    });
    probe.listen({ host, port, exclusive: true }, () => resolve());
  });
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}
