/**
 * The browser the tests drive: Debian's `chromium-headless-shell` (the "old headless" build of the same
 * Chromium, which is also what Playwright itself runs headless by default), never a downloaded one.
 * The full `chromium` in its new headless mode renders the same pages with more work: the 73 browser tests
 * alone took 280 core-seconds and 411 s with it, 202 core-seconds and 312 s with the shell (app included,
 * `time npx playwright test` with FDP_SKIP_BUILD=1, 2026-11-30), and CI's two cores are its limit.
 * FDP_CHROMIUM=/usr/bin/chromium runs the full one.
 */
export const TEST_BROWSER_LAUNCH = {
  executablePath: process.env.FDP_CHROMIUM ?? "/usr/bin/chromium-headless-shell",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};
