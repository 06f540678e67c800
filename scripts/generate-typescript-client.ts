/**
 * Writes the typed client's types (clients/typescript/src/schema.ts) from the OpenAPI document the app
 * serves, with openapi-typescript:
 *
 *   npm run client:generate
 *
 * Run it after changing an operation's input or output; tests/unit/clients/typescript-client-schema.test.ts
 * fails until then.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { CLIENT_SCHEMA_PATH, typescriptClientSchema } from "./lib/typescript-client-schema";

writeFileSync(path.join(process.cwd(), CLIENT_SCHEMA_PATH), await typescriptClientSchema());
console.log(JSON.stringify({ written: CLIENT_SCHEMA_PATH }));
