import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret } from "@/lib/webhooks/webhook-secret";
import { webhookHeaders } from "@/lib/webhooks/webhook-signature";

/**
 * docs/webhooks.md "Verifying a delivery": its Python and openssl snippets, run as written against a
 * signature FDP makes (lib/webhooks/webhook-signature.ts), and the Standard Webhooks library's verdict
 * on the same delivery, so the guide cannot drift from what FDP sends.
 */

const DOC = readFileSync(path.resolve(import.meta.dirname, "../../../docs/webhooks.md"), "utf8");
const block = (lang: string, containing: string) => {
  const found = [...DOC.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!).find((b) => b.includes(containing));
  if (!found) throw new Error(`docs/webhooks.md has no ${lang} block with ${containing}`);
  return found;
};

function signedDelivery(at = new Date()) {
  const secret = newWebhookSecret();
  const body = JSON.stringify({ type: "alert.created", timestamp: at.toISOString(), data: { device_id: "sbx-006", alert_id: "alt_x", agent: "battery", severity: "CRITICAL" } });
  return { secret, body, headers: webhookHeaders(secret, "evt_docs0000000000000001", at, body) };
}

describe("docs/webhooks.md's verification snippets", () => {
  it("the Standard Webhooks library accepts FDP's signature and refuses a changed body", () => {
    const d = signedDelivery();
    expect(new Webhook(d.secret).verify(d.body, d.headers)).toEqual(JSON.parse(d.body));
    expect(() => new Webhook(d.secret).verify(`${d.body} `, d.headers)).toThrow();
  });

  it("the Python snippet (standard library only) accepts it and refuses a changed body or another secret", () => {
    const d = signedDelivery();
    const run = (secret: string, body: string) =>
      execFileSync(
        "python3",
        ["-c", `${block("python", "def verify")}\nimport json, sys\nd = json.load(sys.stdin)\nverify(d["secret"], d["headers"], d["body"].encode())\nprint("ok")`],
        {
          input: JSON.stringify({ secret, headers: d.headers, body }),
          encoding: "utf8",
          stdio: ["pipe", "pipe", "pipe"],
        },
      ).trim();
    expect(run(d.secret, d.body)).toBe("ok");
    expect(() => run(d.secret, `${d.body} `)).toThrow(/signature does not verify/);
    expect(() => run(newWebhookSecret(), d.body)).toThrow(/signature does not verify/);
  });

  it("the openssl lines compute the signature FDP sends", () => {
    const d = signedDelivery();
    const out = execFileSync("bash", ["-c", block("sh", "openssl dgst")], {
      env: { ...process.env, SECRET: d.secret, ID: d.headers["webhook-id"], TS: d.headers["webhook-timestamp"], BODY: d.body },
      encoding: "utf8",
    }).trim();
    expect(`v1,${out}`).toBe(d.headers["webhook-signature"]);
  });
});
