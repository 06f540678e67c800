import type { ApiReferenceConfiguration } from "@scalar/types/api-reference";
import { SANDBOX_KEY } from "@/lib/auth/key-format";

/**
 * The /docs page: Scalar's API reference (https://github.com/scalar/scalar, package
 * `@scalar/api-reference`) rendering the app's own OpenAPI document. Everything it loads comes from
 * this origin: the Scalar bundle and the start-up script under /docs/assets/, the document from
 * /api/v1/openapi.json. No CDN, no web font, no telemetry, no Scalar cloud service.
 *
 * The page is a whole HTML document answered by a route handler (app/docs/route.ts), as Scalar's own
 * Next.js integration does: the reference owns the page (its sidebar, its styles, its dark mode), and
 * the app's Tailwind base styles and React tree stay out of its way.
 */

export const API_REFERENCE_TITLE = "API reference — FDP";
const OPENAPI_DOCUMENT_PATH = "/api/v1/openapi.json";
export const SCALAR_BUNDLE_PATH = "/docs/assets/scalar-api-reference.js";
export const API_REFERENCE_INIT_PATH = "/docs/assets/api-reference-init.js";
/** The name of the Bearer scheme in the document's components.securitySchemes (lib/openapi/document.ts). */
const BEARER_SCHEME_NAME = "bearerAuth";
const CONFIG_ELEMENT_ID = "fdp-api-reference-config";
const MOUNT_ELEMENT_ID = "fdp-api-reference";
const HEADER_HEIGHT = "3rem";

/**
 * Scalar's configuration (option names from @scalar/types' api-reference-configuration schema of the
 * installed 1.72 release). The start-up script adds this origin's /api/v1 as the first server, so "try
 * it" calls the server that served the page whatever PUBLIC_BASE_URL says; the document's own server
 * (PUBLIC_BASE_URL + /api/v1) stays selectable when it differs.
 */
function apiReferenceConfiguration({ publicBaseUrl }: { publicBaseUrl: string }) {
  return {
    url: OPENAPI_DOCUMENT_PATH,
    servers: [{ url: `${publicBaseUrl.replace(/\/$/, "")}/api/v1`, description: "PUBLIC_BASE_URL of this deployment" }],
    // The public sandbox key (CONTRACT "Names and addresses"), so every operation can be tried at once.
    authentication: {
      preferredSecurityScheme: BEARER_SCHEME_NAME,
      securitySchemes: { [BEARER_SCHEME_NAME]: { token: SANDBOX_KEY } },
    },
    // Nothing leaves the origin: no fonts from fonts.scalar.com (the page falls back to system fonts),
    // no telemetry, no "Ask AI" agent or MCP generator (both talk to Scalar's cloud and are switched on
    // by default on localhost), no developer toolbar (it links to Scalar's dashboard and registry).
    // proxyUrl is left unset: "try it" then calls the API directly (same origin, no CORS needed).
    withDefaultFonts: false,
    telemetry: false,
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    // Light like the rest of the site; the reader can switch to dark with Scalar's toggle.
    darkMode: false,
    theme: "default",
    layout: "modern",
    documentDownloadType: "json",
    persistAuth: false,
    metaData: { title: API_REFERENCE_TITLE },
    // The site header above the reference (Scalar offsets its sticky sidebar by this variable).
    // Scalar's default muted greys fail WCAG AA on white (axe: color-contrast, e.g. the sidebar search
    // placeholder, the HTTP method tags); these keep its look at 4.5:1 or more on white (the 700 shades).
    customCss: `:root { --scalar-custom-header-height: ${HEADER_HEIGHT}; } .light-mode { --scalar-color-2: #3f3f46; --scalar-color-3: #52525b; --scalar-color-blue: #0369a1; --scalar-color-green: #15803d; --scalar-color-orange: #c2410c; --scalar-color-red: #b91c1c; --scalar-color-yellow: #a16207; --scalar-color-purple: #7e22ce; } .dark-mode { --scalar-color-3: #a1a1aa; }`,
    // The type of the installed release checks the option names (`url` and `agent` belong to its
    // source configuration, which the package does not export as a type).
  } satisfies Partial<ApiReferenceConfiguration> & { url: string; agent: { disabled: boolean } };
}

/** JSON inside <script>: `<` escaped so no value can close the element (or open a comment). */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

export function apiReferenceHtml({ publicBaseUrl, scalarVersion }: { publicBaseUrl: string; scalarVersion: string }): string {
  const version = encodeURIComponent(scalarVersion);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${API_REFERENCE_TITLE}</title>
<meta name="description" content="Reference of the FDP REST API, generated from its OpenAPI document, with a sandbox key to try every operation.">
<style>
  body { margin: 0; }
  .fdp-docs-header {
    position: sticky; top: 0; z-index: 20; box-sizing: border-box; height: ${HEADER_HEIGHT};
    display: flex; align-items: center; gap: 1.25rem; padding: 0 1rem; white-space: nowrap;
    font: 500 0.875rem/1 system-ui, -apple-system, "Segoe UI", sans-serif;
    background: var(--scalar-background-1, #fff); color: var(--scalar-color-1, #0f172a);
    border-bottom: 1px solid var(--scalar-border-color, #e2e8f0);
  }
  .fdp-docs-header a { color: inherit; text-decoration: none; }
  .fdp-docs-header a:hover, .fdp-docs-header a:focus-visible { text-decoration: underline; }
  .fdp-docs-header .fdp-brand { font-weight: 700; letter-spacing: 0.02em; }
  .fdp-docs-header nav { margin-left: auto; display: flex; gap: 1rem; }
  @media (max-width: 26rem) { .fdp-docs-header, .fdp-docs-header nav { gap: 0.75rem; } .fdp-docs-header { font-size: 0.8125rem; } }
  .fdp-docs-fallback { max-width: 40rem; margin: 3rem auto; padding: 0 1.5rem; font-family: system-ui, sans-serif; line-height: 1.6; }
</style>
</head>
<body>
<header class="fdp-docs-header">
  <a class="fdp-brand" href="/">FDP</a>
  <span>API reference</span>
  <nav aria-label="Site">
    <a href="/dashboard">Dashboard</a>
    <a href="${OPENAPI_DOCUMENT_PATH}">openapi.json</a>
  </nav>
</header>
<div id="${MOUNT_ELEMENT_ID}"></div>
<noscript><main class="fdp-docs-fallback"><h1>API reference</h1><p>The interactive reference needs JavaScript. The OpenAPI 3.1 document it is generated from is at <a href="${OPENAPI_DOCUMENT_PATH}">${OPENAPI_DOCUMENT_PATH}</a>; the sandbox key is <code>${SANDBOX_KEY}</code>.</p></main></noscript>
<script id="${CONFIG_ELEMENT_ID}" type="application/json">${jsonForScript(apiReferenceConfiguration({ publicBaseUrl }))}</script>
<script src="${SCALAR_BUNDLE_PATH}?v=${version}" defer></script>
<script src="${API_REFERENCE_INIT_PATH}" defer></script>
</body>
</html>
`;
}

/**
 * Runs after the bundle (both scripts are `defer`, so in order): reads the configuration above and
 * mounts the reference. A file rather than an inline script, so a Content-Security-Policy of
 * `script-src 'self'` is enough for the page.
 */
export const API_REFERENCE_INIT_SCRIPT = `"use strict";
(function () {
  var config = JSON.parse(document.getElementById(${JSON.stringify(CONFIG_ELEMENT_ID)}).textContent);
  var here = window.location.origin + "/api/v1";
  config.servers = [{ url: here, description: "This server" }].concat(
    (config.servers || []).filter(function (server) { return server.url !== here; })
  );
  window.Scalar.createApiReference(${JSON.stringify(`#${MOUNT_ELEMENT_ID}`)}, config);
  // Names for the controls Scalar renders without one (axe: button-name, link-name): its code
  // copy buttons and section toggles, and the icon-only contact links. Re-applied as the reference re-renders.
  function nameUnnamed(root) {
    root.querySelectorAll("button:not([aria-label])").forEach(function (b) {
      if ((b.innerText || "").trim() === "" && !b.getAttribute("aria-labelledby") && !b.title) {
        b.setAttribute("aria-label", b.classList.contains("scalar-code-copy") ? "Copy code" : b.getAttribute("aria-expanded") === null ? "Toggle" : "Show or hide this section");
      }
    });
    root.querySelectorAll("a[href]:not([aria-label])").forEach(function (a) {
      if ((a.innerText || "").trim() !== "" || a.title || a.getAttribute("aria-labelledby") || a.querySelector("img[alt]:not([alt=''])")) return;
      var href = a.getAttribute("href");
      a.setAttribute("aria-label", href.indexOf("mailto:") === 0 ? "E-mail " + href.slice(7) : "Open " + href);
    });
  }
  if (typeof MutationObserver === "function" && document.body) {
    new MutationObserver(function () { nameUnnamed(document); }).observe(document.body, { childList: true, subtree: true });
    nameUnnamed(document);
  }
})();
`;
