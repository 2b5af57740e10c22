// What the headless-Chromium scripts share: the browser as the tests launch it, and named checks
// counted into the "N passed, M failed" line the Java side reads.
import { chromium } from 'playwright-core';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    // Playwright gives every launch a fresh temporary profile of its own
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
}

export function checks() {
  let passed = 0;
  let failed = 0;
  return {
    async check(name, body) {
      try {
        await body();
        passed++;
        console.log(`ok   ${name}`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${name}: ${e?.stack ?? e}`);
      }
    },
    finish() {
      console.log(`${passed} passed, ${failed} failed`);
      process.exit(failed === 0 ? 0 : 1);
    },
  };
}
