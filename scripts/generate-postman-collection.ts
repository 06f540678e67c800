/**
 * Writes the Postman collection (clients/postman/fdp.postman_collection.json) from the OpenAPI document
 * the app serves, with openapi-to-postmanv2 and the operations' sandbox examples:
 *
 *   npm run postman:generate
 *
 * tests/unit/clients/postman-collection.test.ts fails until it is run after an operation changes.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { POSTMAN_COLLECTION_PATH, postmanCollection } from "./lib/postman-collection";

writeFileSync(path.join(process.cwd(), POSTMAN_COLLECTION_PATH), `${JSON.stringify(await postmanCollection(), null, 2)}\n`);
console.log(JSON.stringify({ written: POSTMAN_COLLECTION_PATH }));
