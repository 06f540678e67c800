import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rows } from "@/lib/db/sql-values";
import { deriveStatus } from "@/lib/fleet/derive-fleet-state";
import { CHARGING_WORDS, chargingWord, chargingWordSql, isChargingStatus, isNotChargingStatus } from "@/lib/vocabulary/charging";
import { createTestDatabase, type TestDatabase } from "../helpers/databases";

/**
 * One charging vocabulary: the fleet status, the detectors and the battery snapshot (JS) and the
 * fleet scores (SQL) read an OEM status word the same way, on both databases.
 */
const SPELLINGS = [
  "\tcharging\n",
  "\u00a0dc-charging ",
  "charging",
  "Charging",
  " FAST-CHARGING ",
  "dc charging",
  "DC_Charging",
  "ac-charging",
  "not charging",
  "Not-Charging",
  "complete",
  "idle",
  "plugged",
  "",
  "x\ty",
];

describe.each(["postgres", "pglite"] as const)("charging words on %s", (kind) => {
  let tdb: TestDatabase;
  beforeAll(async () => {
    tdb = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("normalise in SQL exactly as in JS", async () => {
    for (const s of SPELLINGS) {
      const [r] = await rows<{ w: string }>(tdb.handle.db, sql`select ${sql.raw(chargingWordSql("x.s"))} as w from (select ${s}::text as s) x`);
      expect(r?.w, JSON.stringify(s)).toBe(chargingWord(s));
    }
  });
});

describe("the charging vocabulary", () => {
  it("recognises a charge however the OEM spells it, in the fleet status too", () => {
    for (const s of [" FAST-CHARGING ", "dc charging", "Charging", "AC_CHARGING"]) expect(isChargingStatus(s), s).toBe(true);
    for (const s of ["not charging", "complete", "plugged", "", null]) expect(isChargingStatus(s), String(s)).toBe(false);
    expect(isNotChargingStatus("Not-Charging")).toBe(true);
    expect(CHARGING_WORDS.every((w) => chargingWord(w) === w)).toBe(true);
    const parked = { ts: new Date("2026-11-23T10:00:00Z"), speedKmh: 0, ignition: 0, chargingPowerKw: null };
    expect(deriveStatus({ ...parked, chargingStatus: "DC-Charging" }, new Date("2026-11-23T10:05:00Z"))).toBe("charging");
    expect(deriveStatus({ ...parked, chargingStatus: "not charging" }, new Date("2026-11-23T10:05:00Z"))).toBe("parked");
  });
});
