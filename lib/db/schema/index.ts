export * from "./tenants";
export * from "./api-keys";
export * from "./users";
export * from "./devices";
export * from "./telemetry";
export * from "./alerts";
export * from "./meta";
export * from "./rate-limits";
