import { generateSandboxFleet } from "@/lib/seed/generate-sandbox-fleet";
const t=Date.now();
const f = generateSandboxFleet({ anchor: new Date("2025-03-14T10:00:00Z") });
console.log("generate", Date.now()-t, "ms", f.telemetry.length, "rows", f.drivingEvents.length, "events");
