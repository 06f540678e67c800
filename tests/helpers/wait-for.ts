/**
 * Polls `check` every 100 ms until it holds or `ms` have passed; returns whether it held. For work the
 * code under test does in the background (rollup and score refreshes after an ingest), observed at the
 * database rather than through the code's own bookkeeping.
 */
export async function waitFor(check: () => Promise<boolean>, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}
