import { defineConfig } from "@playwright/test";
import { TEST_BROWSER_LAUNCH } from "./tests/helpers/test-browser";

/**
 * Browser tests (e2e/) against the production build, started as users start it (`npm start`) on a
 * free port with a fresh embedded database in a temp folder (e2e/global-setup.ts builds first unless
 * FDP_SKIP_BUILD=1 and a build exists). Debian's Chromium headless shell, no browser download (STACK.md;
 * tests/helpers/test-browser.ts).
 * One worker: the app is one process on a small machine, and the tests share its database.
 */
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  outputDir: "test-results/e2e",
  use: {
    browserName: "chromium",
    launchOptions: TEST_BROWSER_LAUNCH,
    viewport: { width: 1280, height: 800 },
    trace: "off",
    screenshot: "only-on-failure",
  },
});
