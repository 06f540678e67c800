import { z } from "zod";
import { ALERT_LEVELS } from "@/lib/vocabulary/alerts";
import { dateTime, intQueryParam, listEnvelope } from "./common";

export const FLEET_STATUSES = ["driving", "idle", "parked", "charging", "offline"] as const;

/** GET /fleet's `limit`: its range and default (the dashboard's fleet table asks for the most). */
export const FLEET_LIMIT = { min: 1, max: 500, fallback: 100 } as const;

export const fleetQuerySchema = z.object({
  limit: intQueryParam(FLEET_LIMIT).meta({
    description: `Most vehicles to return, ${FLEET_LIMIT.min}–${FLEET_LIMIT.max} (default ${FLEET_LIMIT.fallback}), in \`device_id\` order.`,
  }),
});
export type FleetQuery = z.output<typeof fleetQuerySchema>;

export const fleetRecordSchema = z
  .object({
    device_id: z.string(),
    device_name: z.string(),
    vehicle_speed: z.number().nullable().meta({ description: "km/h; null when the device has not reported it." }),
    battery_voltage: z.number().nullable().meta({ description: "Volts (12 V system or traction pack as reported); null when unknown." }),
    lat: z.number().nullable(),
    lon: z.number().nullable(),
    status: z.enum(FLEET_STATUSES).meta({ description: "`offline` when the latest state is older than 24 h." }),
    alert_level: z.enum(ALERT_LEVELS).meta({ description: "Severity of the highest unacknowledged alert." }),
    weather_temp: z.number().nullable().meta({ description: "Ambient temperature, °C; null when unknown." }),
    ignition: z.union([z.literal(0), z.literal(1)]).meta({ description: "1 on, 0 off." }),
    updated_at: dateTime().meta({ description: "Device timestamp of the latest state." }),
  })
  .meta({ id: "FleetRecord" });
export type FleetRecord = z.output<typeof fleetRecordSchema>;

export const fleetListSchema = listEnvelope(fleetRecordSchema, "FleetList");
export type FleetList = z.output<typeof fleetListSchema>;
