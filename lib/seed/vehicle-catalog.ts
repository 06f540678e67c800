/**
 * Models found in Finnish lease fleets, with list prices (EUR incl. VAT, typical trim) and the
 * technical figures the simulation needs. Energy figures are mild-weather real-world averages;
 * the simulation adds the cold-weather and motorway penalties.
 */

import type { AssetClass as AnyAssetClass } from "@/lib/vocabulary/master-data";
import type { Powertrain } from "@/lib/vocabulary/powertrain";

export type FuelType = "electric" | "petrol" | "diesel" | "hybrid";
/** The sandbox fleet has cars and vans only. */
export type AssetClass = Extract<AnyAssetClass, "passenger_car" | "light_commercial">;

export interface VehicleModel {
  make: string;
  model: string;
  powertrain: Powertrain;
  fuelType: FuelType;
  assetClass: AssetClass;
  priceEur: number;
  /** Usable traction battery of plug-in vehicles; null for ICE and (non plug-in) HEV. */
  batteryKwh: number | null;
  /** Electric consumption at +15 °C, mixed driving (plug-ins only). */
  kwhPerKm: number | null;
  /** On-board AC charger limit. */
  acKw: number | null;
  /** Peak DC charging power; null when the vehicle has no DC inlet. */
  dcKw: number | null;
  tankL: number | null;
  /** Fuel use when running on fuel (PHEV: charge-sustaining mode). */
  litresPer100Km: number | null;
  /** World manufacturer identifier: the first three VIN characters. */
  wmi: string;
}

const bev = (
  make: string,
  model: string,
  assetClass: AssetClass,
  priceEur: number,
  batteryKwh: number,
  kwhPerKm: number,
  acKw: number,
  dcKw: number,
  wmi: string,
): VehicleModel => ({
  make,
  model,
  powertrain: "BEV",
  fuelType: "electric",
  assetClass,
  priceEur,
  batteryKwh,
  kwhPerKm,
  acKw,
  dcKw,
  tankL: null,
  litresPer100Km: null,
  wmi,
});

const phev = (
  make: string,
  model: string,
  priceEur: number,
  batteryKwh: number,
  kwhPerKm: number,
  acKw: number,
  tankL: number,
  litresPer100Km: number,
  wmi: string,
): VehicleModel => ({
  make,
  model,
  powertrain: "PHEV",
  fuelType: "hybrid",
  assetClass: "passenger_car",
  priceEur,
  batteryKwh,
  kwhPerKm,
  acKw,
  dcKw: null,
  tankL,
  litresPer100Km,
  wmi,
});

const combustion = (
  make: string,
  model: string,
  powertrain: Extract<Powertrain, "HEV" | "ICE">,
  fuelType: FuelType,
  assetClass: AssetClass,
  priceEur: number,
  tankL: number,
  litresPer100Km: number,
  wmi: string,
): VehicleModel => ({
  make,
  model,
  powertrain,
  fuelType,
  assetClass,
  priceEur,
  batteryKwh: null,
  kwhPerKm: null,
  acKw: null,
  dcKw: null,
  tankL,
  litresPer100Km,
  wmi,
});

export const MODELS = {
  teslaModelY: bev("Tesla", "Model Y Long Range", "passenger_car", 52_000, 75, 0.165, 11, 250, "XP7"),
  teslaModel3: bev("Tesla", "Model 3 Long Range", "passenger_car", 48_000, 75, 0.15, 11, 250, "LRW"),
  vwId4: bev("Volkswagen", "ID.4 Pro", "passenger_car", 50_500, 77, 0.18, 11, 135, "WVG"),
  skodaEnyaq: bev("Skoda", "Enyaq 85", "passenger_car", 52_000, 77, 0.175, 11, 135, "TMB"),
  kiaEv6: bev("Kia", "EV6 Long Range", "passenger_car", 54_000, 77.4, 0.175, 11, 240, "KNA"),
  volvoXc40: bev("Volvo", "XC40 Recharge Twin", "passenger_car", 56_000, 75, 0.21, 11, 150, "YV1"),
  hyundaiIoniq5: bev("Hyundai", "Ioniq 5 Long Range", "passenger_car", 52_000, 77.4, 0.18, 11, 220, "KMH"),
  polestar2: bev("Polestar", "2 Long Range", "passenger_car", 55_000, 75, 0.185, 11, 155, "LPS"),
  bmwI4: bev("BMW", "i4 eDrive40", "passenger_car", 66_000, 80.7, 0.17, 11, 205, "WBY"),
  nissanLeaf: bev("Nissan", "Leaf 40 kWh", "passenger_car", 34_000, 39, 0.17, 6.6, 50, "SJN"),
  mg4: bev("MG", "MG4 Long Range", "passenger_car", 35_000, 64, 0.17, 11, 140, "LSJ"),
  vwIdBuzzCargo: bev("Volkswagen", "ID. Buzz Cargo", "light_commercial", 57_000, 77, 0.22, 11, 170, "WV1"),
  mercedesEvito: bev("Mercedes-Benz", "eVito Panel Van", "light_commercial", 62_000, 90, 0.25, 11, 80, "W1V"),
  toyotaProaceElectric: bev("Toyota", "Proace Electric", "light_commercial", 48_000, 75, 0.245, 11, 100, "YAR"),
  fordETransitCustom: bev("Ford", "E-Transit Custom", "light_commercial", 56_000, 64, 0.235, 11, 125, "WF0"),
  toyotaRav4Phev: phev("Toyota", "RAV4 Plug-in Hybrid", 58_000, 18.1, 0.19, 6.6, 55, 6.0, "JTM"),
  mitsubishiOutlanderPhev: phev("Mitsubishi", "Outlander PHEV", 50_000, 20, 0.21, 3.7, 56, 7.2, "JMB"),
  vwPassatGte: phev("Volkswagen", "Passat GTE Variant", 48_000, 13, 0.18, 3.6, 50, 6.0, "WVW"),
  volvoXc60Recharge: phev("Volvo", "XC60 Recharge T6", 68_000, 18.8, 0.21, 3.7, 71, 7.5, "YV1"),
  skodaSuperbIv: phev("Skoda", "Superb iV Combi", 45_000, 13, 0.17, 3.6, 50, 6.0, "TMB"),
  bmw330e: phev("BMW", "330e Touring", 56_000, 12, 0.175, 3.7, 40, 6.5, "WBA"),
  toyotaCorollaHybrid: combustion("Toyota", "Corolla Touring Sports Hybrid", "HEV", "hybrid", "passenger_car", 33_000, 43, 4.6, "SB1"),
  toyotaChrHybrid: combustion("Toyota", "C-HR Hybrid", "HEV", "hybrid", "passenger_car", 36_000, 43, 4.9, "NMT"),
  skodaOctaviaTdi: combustion("Skoda", "Octavia Combi 2.0 TDI", "ICE", "diesel", "passenger_car", 36_000, 45, 5.0, "TMB"),
  skodaOctaviaTsi: combustion("Skoda", "Octavia Combi 1.5 TSI", "ICE", "petrol", "passenger_car", 32_000, 45, 6.2, "TMB"),
  volvoV60: combustion("Volvo", "V60 B4", "ICE", "petrol", "passenger_car", 52_000, 60, 6.8, "YV1"),
  toyotaHilux: combustion("Toyota", "Hilux 2.4 D-4D", "ICE", "diesel", "light_commercial", 52_000, 80, 8.5, "MR0"),
  vwTransporter: combustion("Volkswagen", "Transporter 2.0 TDI", "ICE", "diesel", "light_commercial", 46_000, 70, 8.0, "WV1"),
  fordTransitCustom: combustion("Ford", "Transit Custom 2.0 EcoBlue", "ICE", "diesel", "light_commercial", 44_000, 70, 7.6, "WF0"),
  renaultTrafic: combustion("Renault", "Trafic 2.0 dCi", "ICE", "diesel", "light_commercial", 38_000, 80, 7.8, "VF1"),
  mercedesSprinter: combustion("Mercedes-Benz", "Sprinter 316 CDI", "ICE", "diesel", "light_commercial", 52_000, 71, 9.5, "W1V"),
} satisfies Record<string, VehicleModel>;

export type ModelKey = keyof typeof MODELS;
