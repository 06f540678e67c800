import { OPERATIONS, SERVICE_ROUTES, type ServiceRouteName } from "@/lib/operations/registry";

/**
 * Every route under /api and the one matcher that picks the route of a request path. server.ts's
 * request handler (lib/http/api-request-handler.ts, in development and production alike), the edge
 * guard's 405 and OPTIONS answers and the API tests all route with it; Next.js's file router routes
 * only what this hands back to it (pages, next-auth's `/api/auth/*`).
 *
 * The routes are derived from the registry: one per operation path (`/api/v1` + the operation's
 * template, e.g. `/api/v1/tas/{device_id}`, with the methods of the operations there) and one per
 * service route (SERVICE_ROUTES, whose `[...name]` segments match one or more segments).
 *
 * Which route wins when several match is a rule, not the order of any list, and it is Next.js's:
 * reading the templates segment by segment, at the first segment where they differ in kind a static
 * segment beats a parameter and a parameter beats a catch-all. So `/certificates/generate/{device_id}`
 * serves `/certificates/generate/verify`, not `/certificates/{certificate_number}/verify`, and
 * `/api/auth/[...nextauth]` serves `/api/auth/session` before the `/api/[...path]` 404.
 */

type Segment = { kind: "static"; text: string } | { kind: "param"; name: string } | { kind: "rest"; name: string };

/** The rank of a segment kind in the rule above: lower wins. */
const RANK = { static: 0, param: 1, rest: 2 } as const;

export type ApiRoute = {
  /** The template, e.g. `/api/v1/tas/{device_id}` or `/api/[...path]`. */
  template: string;
  /** The methods it serves (besides HEAD with GET, and OPTIONS); none for the catch-all 404. */
  methods: readonly string[];
  segments: readonly Segment[];
} & ({ kind: "operation"; path: string } | { kind: "service"; name: ServiceRouteName });

export interface ApiMatch {
  route: ApiRoute;
  /** Path parameters, percent-decoded: a string each, an array of segments for a catch-all. */
  params: Record<string, string | string[]>;
}

function segmentsOf(template: string): Segment[] {
  return template
    .split("/")
    .slice(1)
    .map((text): Segment => {
      const rest = /^\[\.\.\.([a-z_]+)\]$/.exec(text);
      if (rest?.[1]) return { kind: "rest", name: rest[1] };
      const param = /^\{([a-z_]+)\}$/.exec(text);
      if (param?.[1]) return { kind: "param", name: param[1] };
      return { kind: "static", text };
    });
}

/** Negative when `a` wins over `b` wherever both match (the rule above). */
function precedence(a: ApiRoute, b: ApiRoute): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const d = RANK[a.segments[i]!.kind] - RANK[b.segments[i]!.kind];
    if (d !== 0) return d;
  }
  return 0;
}

/** The same kinds and static texts: two templates no request could tell apart. */
const shapeOf = (route: ApiRoute) => route.segments.map((s) => (s.kind === "static" ? s.text : `<${s.kind}>`)).join("/");

let table: ApiRoute[] | null = null;

/** Every route under /api, most specific first. */
export function apiRoutes(): readonly ApiRoute[] {
  if (table) return table;
  const operationPaths = [...new Set(OPERATIONS.map((op) => op.path))];
  const routes: ApiRoute[] = [
    ...operationPaths.map((path): ApiRoute => {
      const template = `/api/v1${path}`;
      const methods = OPERATIONS.filter((op) => op.path === path).map((op) => op.method);
      return { kind: "operation", path, template, methods, segments: segmentsOf(template) };
    }),
    ...Object.entries(SERVICE_ROUTES).map(([name, { route, methods }]): ApiRoute => ({
      kind: "service",
      name: name as ServiceRouteName,
      template: route,
      methods,
      segments: segmentsOf(route),
    })),
  ];
  const shapes = new Map<string, string>();
  for (const route of routes) {
    const other = shapes.get(shapeOf(route));
    if (other) throw new Error(`api routes: ${route.template} and ${other} match the same paths`);
    shapes.set(shapeOf(route), route.template);
  }
  table = routes.sort(precedence);
  return table;
}

/** The decoded segments of a path, or null for a malformed escape (the edge guard refuses those first). */
function decodedSegments(pathname: string): string[] | null {
  try {
    return pathname.split("/").slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
}

function matchRoute(route: ApiRoute, segments: readonly string[]): ApiMatch["params"] | null {
  const rest = route.segments.at(-1)?.kind === "rest";
  if (rest ? segments.length < route.segments.length : segments.length !== route.segments.length) return null;
  const params: ApiMatch["params"] = {};
  for (const [i, segment] of route.segments.entries()) {
    const value = segments[i]!;
    if (segment.kind === "static") {
      if (value !== segment.text) return null;
    } else if (segment.kind === "param") {
      if (value === "") return null;
      params[segment.name] = value;
    } else {
      const values = segments.slice(i);
      if (values.includes("")) return null;
      params[segment.name] = values;
    }
  }
  return params;
}

/**
 * The route serving a request path (without its query) and its decoded parameters, or null when no
 * route under /api does. Segments are decoded before they are compared, as Next.js does
 * (`/%61pi/v1/fleet` is `/api/v1/fleet`, `/api/v1/tas/a%2Fb` is device `a/b`).
 */
export function matchApiRoute(pathname: string): ApiMatch | null {
  const segments = decodedSegments(pathname);
  if (!segments) return null;
  for (const route of apiRoutes()) {
    const params = matchRoute(route, segments);
    if (params) return { route, params };
  }
  return null;
}

/**
 * The methods served at a request path (`/api/v1/tas/sbx-001` → GET), or null when nothing but the
 * catch-all 404 serves it. For answers given before a handler runs (lib/http/edge-guard.ts): 405
 * `Allow`, OPTIONS.
 */
export function methodsServedAt(pathname: string): string[] | null {
  const methods = matchApiRoute(pathname)?.route.methods ?? [];
  return methods.length > 0 ? [...methods] : null;
}
