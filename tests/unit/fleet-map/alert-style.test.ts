import { describe, expect, it } from "vitest";
import { ALERT_STYLES, alertLevelRank, contrastRatio, legendEntries, worstAlertLevel } from "@/components/fleet-map/alert-style";
import { ALERT_LEVELS } from "@/lib/vocabulary/alerts";

describe("alert styles", () => {
  it("has a style for every alert level of the vocabulary, all distinct", () => {
    expect(Object.keys(ALERT_STYLES).sort()).toEqual([...ALERT_LEVELS].sort());
    const fills = ALERT_LEVELS.map((l) => ALERT_STYLES[l].fill);
    const glyphs = ALERT_LEVELS.map((l) => ALERT_STYLES[l].glyph);
    expect(new Set(fills).size).toBe(ALERT_LEVELS.length);
    expect(new Set(glyphs).size).toBe(ALERT_LEVELS.length); // readable without colour
  });

  it("white glyphs on every fill meet WCAG AA text contrast (4.5:1)", () => {
    for (const level of ALERT_LEVELS) expect(contrastRatio(ALERT_STYLES[level].fill, "#ffffff")).toBeGreaterThanOrEqual(4.5);
  });

  it("computes WCAG contrast ratios (black on white is 21:1, a colour on itself 1:1)", () => {
    expect(contrastRatio("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#b91c1c", "#b91c1c")).toBe(1);
    expect(() => contrastRatio("red", "#ffffff")).toThrow();
  });

  it("lists the legend worst first", () => {
    expect(legendEntries().map((e) => e.level)).toEqual(["critical", "warning", "info", "none"]);
  });
});

describe("worstAlertLevel (a cluster's colour)", () => {
  it("is the most severe level present", () => {
    expect(worstAlertLevel(["none", "info", "none"])).toBe("info");
    expect(worstAlertLevel(["warning", "critical", "info"])).toBe("critical");
    expect(worstAlertLevel(["none", "warning"])).toBe("warning");
  });
  it("is none for an empty set or all-clear vehicles", () => {
    expect(worstAlertLevel([])).toBe("none");
    expect(worstAlertLevel(["none", "none"])).toBe("none");
  });
  it("orders the levels none < info < warning < critical", () => {
    const ranks = ["none", "info", "warning", "critical"].map((l) => alertLevelRank(l as never));
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    expect(new Set(ranks).size).toBe(4);
  });
});
