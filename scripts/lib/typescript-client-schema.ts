import openapiTS, { astToString } from "openapi-typescript";
import { openApiDocument } from "@/lib/openapi/document";

/** Where the typed client's types live (clients/typescript). */
export const CLIENT_SCHEMA_PATH = "clients/typescript/src/schema.ts";

const HEADER = `/**
 * The types of FDP's API, generated from its OpenAPI document (GET /api/v1/openapi.json) by
 * openapi-typescript. Do not edit: regenerate with \`npm run client:generate\`.
 * tests/unit/clients/typescript-client-schema.test.ts fails when this file and the live document differ.
 */

`;

/** The file clients/typescript/src/schema.ts must hold for the document the app serves now. */
export async function typescriptClientSchema(): Promise<string> {
  // Through JSON, as a client reads the document (no undefined members, no class instances).
  const document = JSON.parse(JSON.stringify(openApiDocument())) as Parameters<typeof openapiTS>[0];
  // defaultNonNullable off: a request member with a default (`gp_commitment_pct`, `scores`) stays optional,
  // as the document says; openapi-typescript's default would make a client send it.
  const ast = await openapiTS(document, { alphabetize: false, exportType: true, defaultNonNullable: false });
  return HEADER + astToString(ast);
}
