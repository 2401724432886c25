import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium, which `.ci/run` installs; browser suites skip with a message without it. */
export const CHROMIUM = '/usr/bin/chromium';

/** `describe` when Chromium is installed, else `describe.skip` after saying why. */
export function describeInBrowser(file: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  console.warn(`${file} skipped: ${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`);
  return describe.skip;
}

/** Headless, and quiet: no background networking (this machine's network is closed), no GPU, no QUIC. */
export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Nothing a page asks for leaves this host: every other name fails to resolve.
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
