/**
 * The versioned emission-factor registry: every factor the emissions report (endpoint 8) and the green
 * fleet score use, each with value, unit, year, basis and source. docs/methodology/emissions.md renders
 * this registry as its table (tests/unit/reports/emissions-factors.test.ts keeps the two in step).
 * Change EMISSION_FACTORS_VERSION with any value; a report names the factor ids and this version.
 */

export const EMISSION_FACTORS_VERSION = "factors-2025.1";

interface EmissionFactor {
  id: string;
  value: number;
  unit: string;
  year: number;
  /** What the factor covers (tank-to-wheel, well-to-tank, life-cycle...). */
  basis: string;
  source: string;
}

const DESNZ_2025 = "UK DESNZ/DEFRA GHG conversion factors for company reporting 2025 (SOURCES.md)";

/**
 * Finnish grid factor, g CO2e per kWh of electricity: 88 g CO2e/kWh, LIFE-CYCLE basis (fuel upstream
 * included, the method of Commission Delegated Regulation (EU) 2023/1185), year 2024, as published by
 * lowcarbonpower.org (SOURCES.md "Finnish electricity emission factor"). Statistics Finland's table
 * 14qt publishes the same three bases (direct CO2, CO2e, life-cycle); its 2024 life-cycle value was not
 * retrievable here and replaces this figure when it is. The life-cycle basis is the conservative choice
 * (higher than direct combustion CO2). Location-based. Used by the green fleet score and the emissions report.
 */
export const FI_GRID_G_PER_KWH = 88;
export const FI_GRID_FACTOR_BASIS = "life-cycle CO2e (EU 2023/1185 method), Finland 2024" as const;

/**
 * The GENERATION (direct combustion) emission factor of Finnish grid electricity, for the CSRD report's
 * location-based Scope 2 (GHG Protocol Scope 2 Guidance: Scope 2 is the emissions of generating the
 * electricity; the upstream of the generators' fuels belongs to Scope 3 category 3, Technical Guidance
 * for Calculating Scope 3 Emissions, category 3 activity B). The CSRD report splits each BEV row of the
 * emissions report (kWh × the life-cycle factor above) into generation (Scope 2) and upstream = the row
 * − generation (category 3), so the two still add up to the row to the gram.
 *
 * The primary figure is Statistics Finland's "CO2 emission coefficient for electricity generation
 * (g CO2/kWh)", StatFin table 14qt (with its CO2-equivalent and life-cycle twins; Fingrid is the source
 * of the preliminary coefficient). Its value could not be retrieved here, so no generation figure is
 * verified: the value below is the life-cycle figure, which can only be larger than the generation one,
 * used as an UPPER BOUND. Scope 2 is then overstated by the upstream and category 3 carries no
 * electricity upstream, exactly as before; nothing is counted twice and the total is unchanged. Replace
 * `value` (and `year`) with the 14qt figure and set `verified: true` when it is retrieved.
 */
export const FI_GRID_GENERATION = {
  id: "fi_grid_generation",
  value: FI_GRID_G_PER_KWH,
  unit: "g CO2e/kWh",
  year: 2024,
  basis: "generation (combustion), no upstream",
  source: "Statistics Finland, StatFin table 14qt, CO2 emission coefficient for electricity generation (value not retrieved: see note)",
  verified: false,
  note: "No generation-basis figure could be verified (the StatFin 14qt value for 2024 was not retrievable): the life-cycle figure fi_grid_electricity (88 g CO2e/kWh, 2024, lowcarbonpower.org) is applied as an upper bound of the generation factor, so Scope 2 location-based is overstated by the upstream of generation and the electricity upstream in category 3 is 0.",
} as const;

export const EMISSION_FACTORS = {
  fi_grid_electricity: {
    id: "fi_grid_electricity",
    value: FI_GRID_G_PER_KWH / 1000,
    unit: "kg CO2e/kWh",
    year: 2024,
    basis: `${FI_GRID_FACTOR_BASIS}; location-based; applied to kWh at the plug (charger losses included)`,
    source: 'lowcarbonpower.org, Finland 2024 (SOURCES.md "Finnish electricity emission factor")',
  },
  car_diesel_ttw: { id: "car_diesel_ttw", value: 0.17304, unit: "kg CO2e/km", year: 2025, basis: "tank-to-wheel, average car, diesel", source: DESNZ_2025 },
  car_diesel_wtt: { id: "car_diesel_wtt", value: 0.04146, unit: "kg CO2e/km", year: 2025, basis: "well-to-tank, average car, diesel", source: DESNZ_2025 },
  car_petrol_ttw: { id: "car_petrol_ttw", value: 0.16272, unit: "kg CO2e/km", year: 2025, basis: "tank-to-wheel, average car, petrol", source: DESNZ_2025 },
  car_petrol_wtt: { id: "car_petrol_wtt", value: 0.04599, unit: "kg CO2e/km", year: 2025, basis: "well-to-tank, average car, petrol", source: DESNZ_2025 },
  car_unknown_ttw: { id: "car_unknown_ttw", value: 0.16725, unit: "kg CO2e/km", year: 2025, basis: "tank-to-wheel, average car, unknown fuel", source: DESNZ_2025 },
  car_hev_ttw: { id: "car_hev_ttw", value: 0.12825, unit: "kg CO2e/km", year: 2025, basis: "tank-to-wheel, average car, hybrid (HEV)", source: DESNZ_2025 },
  car_phev_ttw: {
    id: "car_phev_ttw",
    value: 0.10461,
    unit: "kg CO2e/km",
    year: 2025,
    basis: "tank-to-wheel, average car, plug-in hybrid (DESNZ's average electric/fuel split)",
    source: DESNZ_2025,
  },
  van_diesel_ttw: { id: "van_diesel_ttw", value: 0.25561, unit: "kg CO2e/km", year: 2025, basis: "tank-to-wheel, van up to 3.5 t, diesel", source: DESNZ_2025 },
  van_petrol_ttw: { id: "van_petrol_ttw", value: 0.21335, unit: "kg CO2e/km", year: 2025, basis: "tank-to-wheel, van up to 3.5 t, petrol", source: DESNZ_2025 },
  /** Per litre (B7 road diesel, average biofuel blend): turns the per-km figure into litres. */
  diesel_ttw_per_litre: {
    id: "diesel_ttw_per_litre",
    value: 2.57082,
    unit: "kg CO2e/l",
    year: 2025,
    basis: "tank-to-wheel, diesel (average biofuel blend), per litre",
    source: DESNZ_2025.replace(" (SOURCES.md)", ", Fuels (greencalculus.com/methodology/diesel-combustion quotes it)"),
  },
  car_bev_uk_grid: {
    id: "car_bev_uk_grid",
    value: 0.04047,
    unit: "kg CO2e/km",
    year: 2025,
    basis: "average car, battery electric, UK grid (only for the implied kWh/km)",
    source: DESNZ_2025,
  },
  van_bev_uk_grid: {
    id: "van_bev_uk_grid",
    value: 0.06976,
    unit: "kg CO2e/km",
    year: 2025,
    basis: "van up to 3.5 t, battery electric, UK grid (only for the implied kWh/km)",
    source: DESNZ_2025,
  },
  uk_grid_electricity: {
    id: "uk_grid_electricity",
    value: 0.177,
    unit: "kg CO2e/kWh",
    year: 2025,
    basis: "UK grid electricity generation (only for the implied kWh/km)",
    source: DESNZ_2025,
  },
} as const satisfies Record<string, EmissionFactor>;

export type EmissionFactorId = keyof typeof EMISSION_FACTORS;

/**
 * The energy factors of the CSRD report's ESRS E1-5 figures (endpoint 13), same shape as the emission
 * factors but not CO2e per activity: the CO2 per kWh of each fuel (to turn tank-to-wheel CO2e into fuel
 * energy) and the Finnish generation mix (to split electricity by source). docs/methodology/csrd.md
 * renders them as its table (tests/unit/reports/csrd.test.ts keeps the two in step). Change
 * ENERGY_FACTORS_VERSION with any value, of these, of FI_GRID_GENERATION or of the fuel bio shares
 * (lib/reports/fuel-bio-share.ts); the CSRD report names it. 2026.1: the grid generation factor and the
 * bio shares by year were added.
 */
export const ENERGY_FACTORS_VERSION = "energy-factors-2026.1";

export const ENERGY_FACTORS = {
  /**
   * Fuel energy for ESRS E1-5 (CSRD report): FDP measures no fuel, so the energy of a fuel vehicle is its
   * tank-to-wheel CO2e ÷ the fuel's CO2 per kWh. Carbon Trust fact sheet CTL018 "Energy and carbon
   * conversions, 2008 update" (Defra/BERR 2008 factors, gross calorific value): diesel 0.250 and petrol
   * 0.240 kg CO2/kWh. The carbon content per unit of energy of a fossil fuel is a property of the fuel
   * and barely moves between editions; the DESNZ 2025 "Fuels" kWh factors replace these when retrieved.
   * CO2 only: dividing CO2e (CH4 and N2O included, about 1 %) by it overstates the energy by about 1 %.
   */
  diesel_co2_per_kwh: {
    id: "diesel_co2_per_kwh",
    value: 0.25,
    unit: "kg CO2/kWh",
    year: 2008,
    basis: "diesel, gross calorific value; turns tank-to-wheel CO2e into fuel energy (CSRD E1-5)",
    source: "Carbon Trust CTL018 Energy and carbon conversions 2008 update (Defra/BERR 2008 factors)",
  },
  petrol_co2_per_kwh: {
    id: "petrol_co2_per_kwh",
    value: 0.24,
    unit: "kg CO2/kWh",
    year: 2008,
    basis: "petrol, gross calorific value; turns tank-to-wheel CO2e into fuel energy (CSRD E1-5); also HEV, PHEV and unknown fuel",
    source: "Carbon Trust CTL018 Energy and carbon conversions 2008 update (Defra/BERR 2008 factors)",
  },
  /**
   * Finnish electricity generation 2024 by source, for the E1-5 split of the fleet's electricity
   * (location-based, like the grid factor): Statistics Finland, Production of electricity and heat 2024
   * (preliminary, 15 April 2025, as reported by Xinhua): nuclear 38 %, 95 % fossil-free (nuclear, wind
   * 24 %, hydro 17 %, solar, renewable fuels), so fossil fuels and peat 5 % and renewables 95 − 38 = 57 %.
   * Domestic generation; the 4 % net imports are not split.
   */
  fi_generation_renewable_share: {
    id: "fi_generation_renewable_share",
    value: 0.57,
    unit: "share of generation",
    year: 2024,
    basis: "Finland, domestic electricity generation from renewable sources (wind, hydro, solar, renewable fuels); location-based",
    source: "Statistics Finland, Production of electricity and heat 2024, preliminary (15 April 2025; Xinhua report)",
  },
  fi_generation_nuclear_share: {
    id: "fi_generation_nuclear_share",
    value: 0.38,
    unit: "share of generation",
    year: 2024,
    basis: "Finland, domestic electricity generation from nuclear power; location-based",
    source: "Statistics Finland, Production of electricity and heat 2024, preliminary (15 April 2025; Xinhua report)",
  },
  fi_generation_fossil_share: {
    id: "fi_generation_fossil_share",
    value: 0.05,
    unit: "share of generation",
    year: 2024,
    basis: "Finland, domestic electricity generation from fossil fuels and peat (100 % − 95 % fossil-free); location-based",
    source: "Statistics Finland, Production of electricity and heat 2024, preliminary (15 April 2025; Xinhua report)",
  },
} as const satisfies Record<string, EmissionFactor>;

export type EnergyFactorId = keyof typeof ENERGY_FACTORS;

/**
 * Documented per-powertrain consumption where telemetry reports none: a BEV's kWh/km implied by
 * DESNZ (BEV factor ÷ UK grid factor): car ≈ 0.229, van ≈ 0.394 kWh/km.
 */
export const BEV_FALLBACK_KWH_PER_KM = {
  car: EMISSION_FACTORS.car_bev_uk_grid.value / EMISSION_FACTORS.uk_grid_electricity.value,
  van: EMISSION_FACTORS.van_bev_uk_grid.value / EMISSION_FACTORS.uk_grid_electricity.value,
} as const;
