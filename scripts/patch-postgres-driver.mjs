#!/usr/bin/env node
/**
 * Two crash fixes for postgres.js 3.4.9 (the `postgres` package), applied after every `npm install`
 * (package.json "postinstall") until a release carries them. Both take the whole process down when a
 * connection dies at the wrong moment, which tests/db/database-faults.test.ts provokes on purpose
 * (pg_terminate_backend in a loop, a Postgres restart under load):
 *
 * 1. `nextWrite` runs from a setImmediate after `closed()` has set the socket to null and throws
 *    `TypeError: Cannot read properties of null (reading 'write')`, an uncaught exception
 *    (upstream porsager/postgres#1154, #1208; the guard of the open PRs #1168 and #1209). Patched:
 *    with no socket, the buffered write is dropped and the queries waiting on it are rejected with
 *    CONNECTION_CLOSED (a catchable error, answered 503), never left waiting.
 *    Teardown (`terminate`, `closed`) also forgets the cancelled timer and the buffered bytes, so a
 *    reconnected connection is not stuck with a stale timer that blocks every later write.
 * 2. `fetchArrayTypes()` (the array-type query each new connection sends first) is started without
 *    a handler: a connection killed during it is an unhandled rejection, which ends a Node process.
 *    Patched: its failure is ignored (the connection is closing; the next one fetches the types again).
 *
 * Files are replaced (written beside, then renamed), never modified in place: node_modules may be
 * hard-linked from another checkout, whose copy must not change under it. Idempotent; a version other
 * than 3.4.9 is left alone with a warning (check whether it still needs these fixes).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..", "node_modules", "postgres");
const MARK = "/* fdp-patched: null-socket guard */";

if (!existsSync(path.join(root, "package.json"))) process.exit(0);
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
if (version !== "3.4.9") {
  console.warn(`patch-postgres-driver: postgres ${version} is not 3.4.9; not patched (see scripts/patch-postgres-driver.mjs)`);
  process.exit(0);
}

const REPLACEMENTS = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)",
    `  function nextWrite(fn) {\n    ${MARK}\n    if (socket === null) {\n      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n      chunk = nextWriteTimer = null\n      error(Errors.connection('CONNECTION_CLOSED', options))\n      return false\n    }\n    const x = socket.write(chunk, fn)`,
  ],
  ["    clearImmediate(nextWriteTimer)\n    if (socket) {", "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    if (socket) {"],
  [
    "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)",
    "    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)",
  ],
  ["        return fetchArrayTypes()", "        return fetchArrayTypes().catch(() => { /* the connection closes; the next one fetches again */ })"],
  // 3. The row counter (`rows`) is reset only by CommandComplete: a result cut off by a dying connection
  //    left it at its count, so the next query on the reconnected connection wrote its rows from that
  //    index on, behind holes (`[row] = result` read undefined; a fleet list began with `undefined`).
  //    Seen in tests/db/database-faults.test.ts. Patched: a closed connection starts its next result afresh.
  [
    "    incoming = Buffer.alloc(0)\n    remaining = 0\n    incomings = null\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)",
    "    incoming = Buffer.alloc(0)\n    remaining = 0\n    incomings = null\n    rows = 0 /* fdp-patched: row counter reset */\n    result = new Result()\n    clearImmediate(nextWriteTimer)\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)",
  ],
];

for (const flavour of ["src", "cjs/src", "cf/src"]) {
  const file = path.join(root, flavour, "connection.js");
  if (!existsSync(file)) continue;
  let text = readFileSync(file, "utf8");
  for (const [from, to] of REPLACEMENTS) {
    // Each fix on its own: one already applied (an install patched by an earlier version of this script) is kept.
    if (text.includes(to)) continue;
    if (!text.includes(from)) {
      console.error(`patch-postgres-driver: ${flavour}/connection.js does not contain the expected code; not patched`);
      process.exit(1);
    }
    text = text.replace(from, to);
  }
  writeFileSync(`${file}.fdp-tmp`, text);
  renameSync(`${file}.fdp-tmp`, file);
}
