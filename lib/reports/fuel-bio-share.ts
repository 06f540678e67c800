/**
 * The renewable (bio) share of Finnish road fuel for the CSRD report's ESRS E1-5 split of fuel energy
 * into fossil and renewable (endpoint 13): the distribution obligation ("jakeluvelvoite") of the Act on
 * the promotion of renewable fuels in transport, 446/2007 as amended: each year, a distributor of petrol
 * and diesel must deliver at least this share of the energy content of the fuel it supplies as renewable
 * fuel. docs/methodology/csrd.md renders this table (tests/unit/reports/csrd.test.ts keeps the two in step).
 *
 * What it is and is not: a statutory MINIMUM computed with the Act's rules across all of a distributor's
 * deliveries (petrol and diesel together; over-delivery and, from 2025, renewable electricity delivered
 * at public charging points and a flexibility mechanism count towards it): the bio share of the fuel in
 * a given tank differs (E10 petrol carries much less than diesel with renewable diesel). Before 2021 the
 * statutory share counted waste- and residue-based biofuels double, so it is not a physical share: those
 * years are not split (all fuel energy fossil, an overstatement). Change ENERGY_FACTORS_VERSION
 * (lib/reports/emission-factors.ts) with any value.
 */

interface BioShareYear {
  year: number;
  /** Share of the energy content (0–1). */
  share: number;
  source: string;
}

/** The years whose statutory share was verified (the sources say where). */
export const FI_DISTRIBUTION_OBLIGATION: readonly BioShareYear[] = [
  {
    year: 2021,
    share: 0.18,
    source:
      "Act 446/2007 as amended in 2019: a physical share of the energy content rising from 18 % in 2021 to 30 % in 2029 (IEA Policies database, Promoting the use of biofuels in the transport sector, updated 5 July 2021)",
  },
  {
    year: 2022,
    share: 0.12,
    source: "19.5 % lowered by 7.5 percentage points to 12 % (amendment of July 2022; Ministry of Economic Affairs and Employment press release, 25 May 2022)",
  },
  {
    year: 2023,
    share: 0.135,
    source: "21 % lowered by 7.5 percentage points to 13.5 % (government proposal HE 174/2022 vp; Ministry of Economic Affairs and Employment press release, 2022)",
  },
  {
    year: 2024,
    share: 0.135,
    source: "13.5 % (government proposal HE 53/2023 vp: the 2024 obligation lowered to 13.5 %, per the government programme)",
  },
];

/** The first year whose statutory share is a physical share (no double counting). */
const FIRST_PHYSICAL_SHARE_YEAR = 2021;

type BioShareStatus = "statutory" | "estimate" | "not_split";

export interface BioShareOfYear {
  year: number;
  share: number;
  status: BioShareStatus;
  verified: boolean;
  source: string;
}

const ESTIMATE_SOURCE =
  "Estimate: the statutory levels for 2025 onwards (government proposal HE 121/2024 vp: rising moderately from the 2024 level, below the levels of the earlier law) were not verified; FDP applies the 2024 level, 13.5 %";
const NOT_SPLIT_SOURCE =
  "Not split: before 2021 the statutory share (Act 446/2007) counted waste- and residue-based biofuels double, so it is not a physical share; all fuel energy is reported as fossil";

function bioShareOfYear(year: number): BioShareOfYear {
  if (year < FIRST_PHYSICAL_SHARE_YEAR) return { year, share: 0, status: "not_split", verified: false, source: NOT_SPLIT_SOURCE };
  const known = FI_DISTRIBUTION_OBLIGATION.find((y) => y.year === year);
  if (known) return { year, share: known.share, status: "statutory", verified: true, source: known.source };
  const last = FI_DISTRIBUTION_OBLIGATION[FI_DISTRIBUTION_OBLIGATION.length - 1]!;
  return { year, share: last.share, status: "estimate", verified: false, source: ESTIMATE_SOURCE };
}

export interface PeriodBioShare {
  /** Day-weighted share over the period's calendar years (0–1). */
  share: number;
  years: Array<BioShareOfYear & { days: number }>;
}

const DAY_MS = 86_400_000;

/** The bio share of a period [start, end] (YYYY-MM-DD, both days included): each year's share weighted by its days in the period. */
export function fuelBioShareOfPeriod(start: string, end: string): PeriodBioShare {
  const from = Date.parse(`${start}T00:00:00Z`);
  const to = Date.parse(`${end}T00:00:00Z`) + DAY_MS;
  const years: PeriodBioShare["years"] = [];
  for (let y = Number(start.slice(0, 4)); y <= Number(end.slice(0, 4)); y++) {
    const days = Math.round((Math.min(to, Date.UTC(y + 1, 0, 1)) - Math.max(from, Date.UTC(y, 0, 1))) / DAY_MS);
    if (days > 0) years.push({ ...bioShareOfYear(y), days });
  }
  const total = years.reduce((a, y) => a + y.days, 0);
  return { share: total > 0 ? years.reduce((a, y) => a + y.share * y.days, 0) / total : 0, years };
}
