import { spawnSync } from 'node:child_process';

/**
 * Whether a Redis at `url` answers PING within two seconds, decided synchronously (a child node
 * process) so that a suite can choose `describe` or `describe.skip` while jest collects its tests.
 */
export function redisAnswers(url: string): boolean {
  const { hostname, port } = new URL(url);
  const probe = `
    const socket = require('node:net').connect(${Number(port) || 6379}, ${JSON.stringify(hostname.replace(/^\[|\]$/g, '') || '127.0.0.1')});
    socket.setTimeout(1500, () => process.exit(1));
    socket.on('error', () => process.exit(1));
    socket.on('connect', () => socket.write('PING\\r\\n'));
    socket.on('data', (data) => process.exit(/^\\+PONG|^-NOAUTH/.test(String(data)) ? 0 : 1));
  `;
  return spawnSync(process.execPath, ['-e', probe], { timeout: 2000, stdio: 'ignore' }).status === 0;
}
