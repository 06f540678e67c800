import type { PublicCtx, TenantCtx } from "@/lib/context";
import { UnsupportedMediaTypeError, ValidationError } from "@/lib/errors";
import { parseIJson, parseIJsonObject } from "@/lib/json/parse-i-json";
import type { Operation } from "@/lib/operations/define-operation";
import { readBodyLimited } from "./read-body";

/** Request bodies of operations that do not set their own limit. */
export const JSON_BODY_MAX_BYTES = 1024 * 1024;

/** `application/json`, optionally with `charset=utf-8` (I-JSON is UTF-8 only); anything else is a 415. */
export function isJsonContentType(header: string | null): boolean {
  if (!header) return false;
  const [type, ...params] = header.split(";").map((p) => p.trim().toLowerCase());
  if (type !== "application/json") return false;
  return params.every((p) => p === "" || /^charset="?utf-8"?$/.test(p));
}

/**
 * Query parameters the operation declares, each given at most once (a repeated one is ambiguous:
 * 400). Parameters it does not declare are ignored (CONTRACT "Errors").
 */
function declaredQuery(op: Operation, url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of Object.keys(op.input.query?.shape ?? {})) {
    const values = url.searchParams.getAll(name);
    if (values.length > 1)
      throw new ValidationError(`The query parameter ${name} is given ${values.length} times; give it once.`, [{ field: name, message: "given more than once" }]);
    if (values.length === 1) out[name] = values[0] as string;
  }
  return out;
}

/**
 * The operation's raw input from one HTTP request: path parameters, declared query parameters and the
 * declared members of a JSON body, for invokeOperation to validate with the operation's one input
 * schema. Order: media type (415) → size (413) → I-JSON (400) → the operation's `verifyRequest` (e.g.
 * signatures); validation (400) follows in invokeOperation.
 */
export async function readRawInput(op: Operation, req: Request, pathParams: Record<string, unknown>, ctx: TenantCtx | PublicCtx): Promise<Record<string, unknown>> {
  const raw: Record<string, unknown> = {};
  if (op.input.body) {
    if (!isJsonContentType(req.headers.get("content-type"))) {
      throw new UnsupportedMediaTypeError("This endpoint takes a JSON body: send `Content-Type: application/json` (UTF-8).");
    }
    const rawBody = await readBodyLimited(req, op.maxBodyBytes ?? JSON_BODY_MAX_BYTES);
    const body = op.bodyMember === undefined ? parseIJsonObject(rawBody) : { [op.bodyMember]: parseIJson(rawBody) };
    await op.verifyRequest?.({ ctx: ctx, rawBody, body, headers: req.headers });
    for (const name of Object.keys(op.input.body.shape)) if (Object.hasOwn(body, name)) raw[name] = body[name];
  }
  Object.assign(raw, declaredQuery(op, new URL(req.url)));
  for (const name of op.pathParams) raw[name] = pathParams[name];
  return raw;
}
