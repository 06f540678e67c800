import { and, asc, eq, gt } from "drizzle-orm";
import type { z } from "zod";
import type { TenantCtx } from "@/lib/context";
import { events } from "@/lib/db/schema";
import { ValidationError } from "@/lib/errors";
import type { eventsPageSchema, eventsQuerySchema } from "@/lib/schemas/webhooks";

/**
 * `GET /events` (CONTRACT "Webhooks and the changes feed"): the tenant's events in commit order, the
 * same rows webhooks deliver. The cursor is opaque to clients: the last event's `seq` (emitEvents
 * draws it in commit order per tenant, so nothing committed later can appear before it).
 */

const CURSOR_RE = /^seq:(0|[1-9][0-9]{0,17})$/;

function cursorOf(seq: number): string {
  return Buffer.from(`seq:${seq}`, "utf8").toString("base64url");
}

/** The `seq` a cursor stands for; an invalid cursor is a 400 naming `after`. */
function seqOfCursor(cursor: string): number {
  const decoded = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, "base64url").toString("utf8") : "";
  const m = CURSOR_RE.exec(decoded);
  if (!m || cursorOf(Number(m[1])) !== cursor) {
    throw new ValidationError("after is not a cursor this feed gave (pass next_cursor as it came).", [{ field: "after", message: "is not a valid cursor" }]);
  }
  return Number(m[1]);
}

type EventsPage = z.input<typeof eventsPageSchema>;

export async function listEvents({ ctx, input }: { ctx: TenantCtx; input: z.output<typeof eventsQuerySchema> }): Promise<EventsPage> {
  const after = input.after === undefined ? 0 : seqOfCursor(input.after);
  const rows = await ctx.db
    .select({ seq: events.seq, id: events.id, type: events.type, data: events.data, createdAt: events.createdAt })
    .from(events)
    .where(and(eq(events.tenantId, ctx.tenantId), gt(events.seq, after), input.type ? eq(events.type, input.type) : undefined))
    .orderBy(asc(events.seq))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    data: page.map((e) => ({ id: e.id, type: e.type, timestamp: e.createdAt.toISOString(), data: e.data })),
    next_cursor: cursorOf(last ? last.seq : after),
    has_more: rows.length > input.limit,
  };
}
