import { afterEach, describe, expect, it } from "vitest";
import { env, parseEnv, resetEnvCache } from "@/lib/env";
import { setEnv } from "@/tests/helpers/test-env";

/** CONTRACT "Evidence and trust": PUBLIC_BASE_URL defaults to http://localhost:<PORT>, so verify links follow the port. */
describe("PUBLIC_BASE_URL", () => {
  const saved = { PORT: process.env.PORT, PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL };
  afterEach(() => {
    setEnv(saved);
  });

  it("defaults to http://localhost:<PORT>, PORT defaulting to 3000", () => {
    expect(parseEnv({ PORT: "4123" }).PUBLIC_BASE_URL).toBe("http://localhost:4123");
    expect(parseEnv({}).PUBLIC_BASE_URL).toBe("http://localhost:3000");
    expect(parseEnv({ PORT: "" }).PUBLIC_BASE_URL).toBe("http://localhost:3000"); // empty counts as unset
    expect(parseEnv({ PORT: "4123", PUBLIC_BASE_URL: "" }).PUBLIC_BASE_URL).toBe("http://localhost:4123");
  });

  it("an explicit PUBLIC_BASE_URL wins over the port", () => {
    expect(parseEnv({ PORT: "4123", PUBLIC_BASE_URL: "https://fdp.example.com" }).PUBLIC_BASE_URL).toBe("https://fdp.example.com");
  });

  it("PORT is parsed once for the server and the default: an integer 1–65535", () => {
    expect(parseEnv({ PORT: "8080" }).PORT).toBe(8080);
    expect(parseEnv({}).PORT).toBe(3000);
    for (const bad of ["0", "65536", "80.5", "http", "-1"]) expect(() => parseEnv({ PORT: bad }), bad).toThrow();
  });

  it("env() reads it from process.env", () => {
    delete process.env.PUBLIC_BASE_URL;
    process.env.PORT = "3917";
    resetEnvCache();
    expect(env().PUBLIC_BASE_URL).toBe("http://localhost:3917");
  });
});

describe("PORT for server.ts", () => {
  it("server.ts reads the port with the schema's own rule (so it and the default PUBLIC_BASE_URL agree)", async () => {
    const { envSchema } = await import("@/lib/env");
    expect(envSchema.shape.PORT.parse(undefined)).toBe(3000);
    expect(envSchema.shape.PORT.parse("")).toBe(3000);
    expect(envSchema.shape.PORT.parse("4123")).toBe(4123);
  });
});

describe("FDP_PDF_SIGNING_RSA_BITS", () => {
  it("is 3072 unless set, and only one of 2048, 3072 and 4096", () => {
    expect(parseEnv({}).FDP_PDF_SIGNING_RSA_BITS).toBe(3072);
    expect(parseEnv({ FDP_PDF_SIGNING_RSA_BITS: "" }).FDP_PDF_SIGNING_RSA_BITS).toBe(3072);
    expect(parseEnv({ FDP_PDF_SIGNING_RSA_BITS: "4096" }).FDP_PDF_SIGNING_RSA_BITS).toBe(4096);
    expect(parseEnv({ FDP_PDF_SIGNING_RSA_BITS: "2048" }).FDP_PDF_SIGNING_RSA_BITS).toBe(2048);
    for (const bad of ["1024", "3000", "8192", "3072.0", "rsa"]) expect(() => parseEnv({ FDP_PDF_SIGNING_RSA_BITS: bad }), bad).toThrow();
  });
});
