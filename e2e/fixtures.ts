import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

let nextAddress = 0;

/**
 * Every test talks to the app started by e2e/global-setup.ts, from a client address of its own
 * (X-Forwarded-For, honoured because that server runs with TRUST_PROXY=1): sign-in attempts of one
 * test never count against another's limit.
 */
export const test = base.extend<{ clientAddress: string }>({
  /**
   * Every page of every test runs under the app's Content-Security-Policy (proxy.ts): a script,
   * style, frame or connection the policy blocks is reported by Chromium in the console, and fails
   * the test that met it.
   */
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    await use(page);
    expect(violations, "Content-Security-Policy violations reported in the console").toEqual([]);
  },
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the first parameter's pattern for dependencies: none
  clientAddress: async ({}, use, testInfo) => {
    nextAddress += 1;
    await use(`198.51.100.${((testInfo.workerIndex * 50 + nextAddress) % 250) + 1}`);
  },
  // eslint-disable-next-line no-empty-pattern -- as above
  baseURL: async ({}, use) => {
    const url = process.env.FDP_E2E_BASE_URL;
    if (!url) throw new Error("FDP_E2E_BASE_URL is unset: run through `npm run test:e2e` (playwright.config.ts starts the app)");
    await use(url);
  },
  extraHTTPHeaders: async ({ clientAddress }, use) => {
    await use({ "x-forwarded-for": clientAddress });
  },
});
export { expect };

export const DEMO_EMAIL = "demo@fdp.example";
const DEMO_PASSWORD = "sandbox-demo-2026";

export async function signIn(page: Page, email = DEMO_EMAIL, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Session cookies by e-mail, from the first sign-in of this worker (workers: 1, so of the run). */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext["cookies"]>>>();

/**
 * Makes `page` signed in as `email`: through the sign-in form the first time (which ends on /dashboard),
 * then with that session's cookies, as a browser that stays signed in does. A session is a JWT that
 * stays valid until the user or the password changes (lib/dashboard/session-validity.ts), so one sign-in
 * serves every test that is not about signing in; a form sign-in costs two page loads and a bcrypt
 * comparison, the bulk of such a test's time on a 2-core machine. Where the page is afterwards is not
 * said: the caller navigates. Tests of the sign-in itself use signIn().
 */
export async function useSession(page: Page, email = DEMO_EMAIL, password = DEMO_PASSWORD): Promise<void> {
  const cookies = sessions.get(email);
  if (cookies) {
    await page.context().addCookies(cookies);
    return;
  }
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
  sessions.set(email, await page.context().cookies());
}

/** Full-page screenshots kept as CI artefacts (e2e/screenshots/ is gitignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `e2e/screenshots/${name}.png`, fullPage: true });
}
