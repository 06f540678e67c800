/**
 * The types of FDP's API, generated from its OpenAPI document (GET /api/v1/openapi.json) by
 * openapi-typescript. Do not edit: regenerate with `npm run client:generate`.
 * tests/unit/clients/typescript-client-schema.test.ts fails when this file and the live document differ.
 */

export type paths = {
    "/fleet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fleet snapshot: the latest state of each vehicle
         * @description One record per vehicle with a known state, ordered by `device_id`. `status` is `offline` when the latest state is older than 24 h. Scope: `fleet:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["listFleet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/alerts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Alerts raised by the detectors, newest first
         * @description Alerts of the detectors (`battery`, `diagnostics`, `driving`, `odometer_integrity`, `charging`), filtered by severity and acknowledgement. Scope: `fleet:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["listAlerts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scores/fleet-risk": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fleet risk score (0–100, higher = riskier) over a period
         * @description Method and sources: docs/methodology/fleet-risk.md. Scope: `scores:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getFleetRiskScore"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scores/vehicle-health/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Vehicle health score (0–100, higher = healthier)
         * @description Method and sources: docs/methodology/vehicle-health.md. Scope: `scores:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getVehicleHealthScore"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scores/green-fleet": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Green fleet score (0–100) over a period: EV share, CO₂ intensity, energy efficiency
         * @description Method and sources: docs/methodology/green-fleet.md. Scope: `scores:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getGreenFleetScore"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vehicles/{device_id}/battery-health-snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Battery health snapshot
         * @description Method and sources: docs/methodology/battery-snapshot.md. Numbers that cannot be known are null and named in `data_quality.missing_fields`. Scope: `scores:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getBatteryHealthSnapshot"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vehicles/{device_id}/eol-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * End-of-life summary with condition grade A–F
         * @description Method and sources: docs/methodology/eol-summary.md. Scope: `scores:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getEolSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/scores/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Up to 100 devices, any of the five scores; a failed device does not fail the batch
         * @description One item per requested id, in request order. A device the tenant does not hold, or whose computation fails, is an item `{device_id, error: {error, message}}`; `meta.processed + meta.errors == meta.total`. Scope: `scores:read`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["scoreDevicesBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oem/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Bulk OEM telemetry ingest: upsert devices, history and fleet snapshot
         * @description At most 10000 records and 10 MiB (413 beyond). The whole payload is validated first; any invalid record gives 400 naming its index and field, and nothing is stored. Optional signatures with the tenant's ingest secret: header `X-FDP-Signature: t=<unix seconds>,sha256=<hex>` over `<t>.<raw body>` (recommended: a timestamp more than 300 s from the server clock is refused, and each signature is accepted once), the older `X-FDP-Signature: sha256=<hex>` over the raw body, or `hmac_signature` over the RFC 8785 canonical JSON of the body without it; a signature that does not verify, a stale timestamp or a reused signature gives 401 `invalid_signature`. A tenant may require signatures, or timestamped ones (`tenant:update --require-signed-ingest true|timestamped`). Re-sending a payload changes nothing; an older record never overwrites a newer snapshot. With the sandbox key the payload is validated and nothing is stored. Scope: `ingest:write`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["ingestOemTelemetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oem/ingest/traccar": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Traccar position forwarding: positions in Traccar's own JSON
         * @description Traccar `{position, device}` documents as the source sends them, one or a JSON array of them; each becomes one telemetry record (mapping and units: docs/feeds.md). At most 10000 documents and 10 MiB (413 beyond). Everything else is endpoint 16's: the whole body is validated first (a 400 names each field as the source sent it, e.g. `position.fixTime` or `2.data.0.value.stringValue`, and nothing is stored), the header signatures (`X-FDP-Signature`), the answer, read-your-writes, and the sandbox's mock acceptance. Scope: `ingest:write`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["ingestTraccarPositions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oem/ingest/tesla": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Tesla Fleet Telemetry: payloads in protobuf JSON
         * @description Tesla Fleet Telemetry payloads as the source sends them, one or a JSON array of them; each becomes one telemetry record (mapping and units: docs/feeds.md). At most 10000 documents and 10 MiB (413 beyond). Everything else is endpoint 16's: the whole body is validated first (a 400 names each field as the source sent it, e.g. `position.fixTime` or `2.data.0.value.stringValue`, and nothing is stored), the header signatures (`X-FDP-Signature`), the answer, read-your-writes, and the sandbox's mock acceptance. Scope: `ingest:write`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["ingestTeslaTelemetry"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tas/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Total Asset Score with grade A–F and pillars
         * @description Method and sources: docs/methodology/tas.md. Knockouts (`soh_below_60`, `odometer_manipulation`) force grade F. Scope: `scores:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getTotalAssetScore"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tas/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Total Asset Score for up to 1000 devices
         * @description One item per requested id, in request order; a device that is unknown or fails has null score fields and an `error`. Scope: `scores:read`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["getTotalAssetScoreBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/vehicles/{device_id}/residual-value": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Rule-based residual value estimate (percent of list price, and euros when the price is known)
         * @description An indicative estimate, not a valuation or an offer: a depreciation curve by age, mileage and battery penalties, small bounded adjustments from the vehicle's scores, and a penalty for an EOL knockout. `data_quality.missing_fields` names what was not known. Method and sources: docs/methodology/residual-value.md. Scope: `predictions:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getResidualValue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/predict/residual-value/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Model-based residual value: a log-linear regression on age, mileage, state of health and powertrain
         * @description Method, calibration data and limits: docs/methodology/residual-value-model.md. Every query parameter is optional: a missing one falls back to the device's master data or telemetry, and `inputs` says which were supplied, derived or missing. `factors` needs the `residual_factors` entitlement (null otherwise). Scope: `predictions:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["predictResidualValue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/predict/mileage/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Odometer forecast to the lease end, with an 80 % interval, overage and overrun risk
         * @description Method, backtest and limitations: docs/methodology/mileage-forecast.md. `contract_km` and `lease_months` in the query win over the device's master data; the lease starts on the master data's `lease_start`, else on the first day with an odometer reading. Scope: `predictions:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["predictMileage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/certificates/generate/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Issue a digital vehicle health certificate (signed, with its PDF)
         * @description No body. Aggregates the EOL summary, battery snapshot, rule-based residual value and vehicle health into an immutable record valid for 180 days, signed as a JWS (EdDSA, detached payload: `jws`, `key_id`); `pdf_base64` is the PDF with its PAdES signature. A BEV/PHEV whose state of health was not read within 90 days is graded at most C with confidence low. Format and verification: docs/certificates.md. Scope: `certificates:write`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["generateCertificate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/certificates/{certificate_number}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A stored certificate by number, unchanged since it was issued
         * @description `is_expired` and `revoked_at` are as of now; the certified fields recompute `verify_hash` (RFC 8785 canonical JSON, SHA-256). Scope: `certificates:write`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getCertificate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/certificates/{certificate_number}/pdf": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The certificate's PDF, byte-identical to the one issued
         * @description `application/pdf` with a PAdES signature over every byte (`pdfsig`, any PDF reader, or `npm run verify-certificate` offline; docs/certificates.md). Scope: `certificates:write`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getCertificatePdf"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/certificates/{certificate_number}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Verify a certificate (public, no key): valid, expired, revoked or invalid
         * @description For auditors and buyers. Shows only what the certificate itself states, its JWS (keys with their validity at /.well-known/fdp-certificate-keys.json) and the SHA-256 of its PDF; never the tenant. `revoked` also when its signing key was revoked, `invalid` when the key was not valid at `generated_at` (`status_reason` says which). Shares the per-IP budget with the /verify page. No key needed; limited per client IP. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["verifyCertificate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pricing/gordon-loeb": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Security investment: expected loss, the Gordon–Loeb 1/e bound, the optimal investment and the ROI of a proposed one
         * @description Gordon & Loeb (2002), ACM TISSEC 5(4). Expected loss v·L; the optimal investment is below (1/e)·v·L; with a breach probability function of class I `S = v/(αz+1)^β` or class II `S = v^(αz+1)` the optimum z* (closed form) and the ENBIS `[v − S(z,v)]·L − z` and ROI `(reduction − z)/z` of a proposed investment. Formulas and worked examples: docs/pricing.md. Any valid API key, whatever its scopes; limited per key. Methods served at this path: POST, OPTIONS.
         */
        post: operations["priceSecurityInvestment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pricing/commission": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Carried interest: a European (whole-fund) distribution waterfall with hurdle, GP catch-up and carry split
         * @description Tiers: return of capital, preferred return (annual compounding by default), GP catch-up, carry split; totals to LPs and GP and the effective carry. The GP commitment is carry-free. Formulas and worked examples: docs/pricing.md. Any valid API key, whatever its scopes; limited per key. Methods served at this path: POST, OPTIONS.
         */
        post: operations["priceCarriedInterest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/emissions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Fleet CO₂e emissions over a date range, per vehicle, as JSON or CSV
         * @description Per vehicle: distance (odometer delta, else great-circle sum of positions), electricity or fuel (telemetry where reported, else documented consumption factors) and CO₂e from the versioned factor registry (DESNZ 2025 tank-to-wheel + well-to-tank; Finnish grid, location-based, charger losses included). `format=csv` answers `text/csv; charset=utf-8`: a header, one row per vehicle of the tenant (zeros where it did not move), a final `TOTAL` row. Dates: YYYY-MM-DD, end inclusive, at most 366 days counting both ends, end not after today (UTC). Method and factor table: docs/methodology/emissions.md. Scope: `reports:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getEmissionsReport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reports/csrd/generate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * ESRS E1-style climate disclosure of the fleet over a date range, as PDF (default) or JSON
         * @description Built from the emissions report of the same dates and the green fleet score of the same window: gross Scope 1 (fuel, tank-to-wheel), Scope 2 location-based (BEV charging × Finnish grid factor) and market-based (where an electricity contract factor is configured), Scope 3 category 3 (well-to-tank) and the category 13 lessor view (pro rata to the lease days), in tCO₂e, each labelled with its ESRS E1 datapoint (Delegated Regulation (EU) 2023/2772); E1-5 energy by source in MWh (electricity split by the location-based generation mix: an estimate); EV share and its monthly trend; data quality and method notes. The location-based total equals the emissions report's `total_co2_kg_estimate` ÷ 1000. `format=pdf` (default) answers `application/pdf` (tables per section and a chart) as an attachment `csrd-<start>-<end>.pdf`. No body. Dates as the emissions report. Method: docs/methodology/csrd.md. Scope: `reports:read`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["generateCsrdReport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/energy/spot-prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Finnish day-ahead electricity spot prices (public, no key)
         * @description Today's (and, once published, tomorrow's) prices for the FI bidding zone in c/kWh, with and without 25.5 % VAT, at the source's resolution (15-minute slots since 1 Oct 2025). Served from a 15-minute cache shared by all instances; with the source down, the last prices up to 24 h old marked `stale`, else a recorded real day (21 Feb 2024) at its own times with that day's 24 % VAT, `stale: true`, `cached: false` and `source` `recorded:<date>`: never today's prices. See docs/spot-prices.md. No key needed; limited per client IP. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getSpotPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/charging/recommendation/{device_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * When and how to charge an EV: the cheapest window before a deadline on Finnish spot prices
         * @description From the latest state of charge, the battery's capacity (× SoH) and the charging power (AC unless only DC meets the deadline): the energy needed at the plug, the charging time, the part up to `min_soc_pct` charged at once, and the cheapest contiguous window for the rest before the deadline (default: the next 07:00 Helsinki time) on the day-ahead prices incl. VAT, with costs now vs in that window. Without usable prices (none live or cached, or none covering a window before the deadline) no window is called cheapest: the window and cost fields are null, the reason says no prices were available, and the charge starts at `latest_safe_start` (the latest start that still reaches the target a margin before the deadline) rather than at once. Method: docs/methodology/charging.md. Scope: `predictions:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["getChargingRecommendation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The tenant's webhook endpoints, each with its newest delivery
         * @description Never the secrets. Scope: `webhooks:write`. Methods served at this path: POST, GET, HEAD, OPTIONS.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Register a webhook endpoint (Standard Webhooks), its secret shown once
         * @description FDP POSTs each subscribed event to `url`, signed per the Standard Webhooks specification (`webhook-id`, `webhook-timestamp`, `webhook-signature`), retried on failure (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h). The target is checked now and at every delivery: no private, link-local, multicast or reserved address; https in production. Not with the sandbox key. Guide: docs/webhooks.md. Scope: `webhooks:write`. Methods served at this path: POST, GET, HEAD, OPTIONS.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One webhook endpoint with its newest delivery
         * @description Scope: `webhooks:write`. Methods served at this path: GET, DELETE, HEAD, OPTIONS.
         */
        get: operations["getWebhook"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint and its pending deliveries
         * @description The events stay in the changes feed (GET /events). Scope: `webhooks:write`. Methods served at this path: GET, DELETE, HEAD, OPTIONS.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhooks/{webhook_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send an endpoint's events again since a time
         * @description Queues every subscribed event committed at or after `since` again, in commit order, with the same `webhook-id`s (dedupe on them). Scope: `webhooks:write`. Methods served at this path: POST, OPTIONS.
         */
        post: operations["replayWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The changes feed: the events webhooks carry, in commit order
         * @description Page with `after` = the previous page's `next_cursor`; an event's `id` is the `webhook-id` of its deliveries. Kept at least 30 days. Poll with the last `next_cursor` instead of registering a webhook, or to catch up after one was down. Scope: `events:read`. Methods served at this path: GET, HEAD, OPTIONS.
         */
        get: operations["listEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type webhooks = {
    "alert.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * alert.created: a detector raised an alert
         * @description Sent to each endpoint registered for this type (POST /webhooks), signed per the Standard Webhooks specification: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (any Standard Webhooks library), and dedupe on `webhook-id` (the same on every retry and replay). Guide: docs/webhooks.md.
         */
        post: operations["onAlertCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "alert.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * alert.updated: an open alert's problem occurred again (more severely: escalated), a later reading resolved it, or a person acknowledged or dismissed it
         * @description Sent to each endpoint registered for this type (POST /webhooks), signed per the Standard Webhooks specification: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (any Standard Webhooks library), and dedupe on `webhook-id` (the same on every retry and replay). Guide: docs/webhooks.md.
         */
        post: operations["onAlertUpdated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "certificate.generated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * certificate.generated: a vehicle health certificate was issued
         * @description Sent to each endpoint registered for this type (POST /webhooks), signed per the Standard Webhooks specification: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (any Standard Webhooks library), and dedupe on `webhook-id` (the same on every retry and replay). Guide: docs/webhooks.md.
         */
        post: operations["onCertificateGenerated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "certificate.revoked": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * certificate.revoked: a certificate was revoked
         * @description Sent to each endpoint registered for this type (POST /webhooks), signed per the Standard Webhooks specification: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (any Standard Webhooks library), and dedupe on `webhook-id` (the same on every retry and replay). Guide: docs/webhooks.md.
         */
        post: operations["onCertificateRevoked"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "device.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * device.created: a vehicle was seen for the first time
         * @description Sent to each endpoint registered for this type (POST /webhooks), signed per the Standard Webhooks specification: verify `webhook-signature` over `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint's secret (any Standard Webhooks library), and dedupe on `webhook-id` (the same on every retry and replay). Guide: docs/webhooks.md.
         */
        post: operations["onDeviceCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
};
export type components = {
    schemas: {
        AlertCreatedPayload: {
            /** @enum {string} */
            type: "alert.created";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["AlertCreatedData"];
        };
        AlertCreatedData: {
            /** @description The vehicle the event is about. */
            device_id: string;
            /** @description The alert's `id` in GET /alerts. */
            alert_id: string;
            /**
             * @description The detector that raised it.
             * @enum {string}
             */
            agent: "battery" | "diagnostics" | "driving" | "odometer_integrity" | "charging";
            /** @enum {string} */
            severity: "CRITICAL" | "WARNING" | "INFO";
        };
        AlertUpdatedPayload: {
            /** @enum {string} */
            type: "alert.updated";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["AlertUpdatedData"];
        };
        AlertUpdatedData: {
            /** @description The vehicle the event is about. */
            device_id: string;
            /** @description The alert's `id` in GET /alerts. */
            alert_id: string;
            /**
             * @description The detector that raised it.
             * @enum {string}
             */
            agent: "battery" | "diagnostics" | "driving" | "odometer_integrity" | "charging";
            /** @enum {string} */
            severity: "CRITICAL" | "WARNING" | "INFO";
            /**
             * @description `occurred_again`: the problem was seen again and folded into this open alert; `escalated`: it was seen again more severely, raised as the new alert `escalated_to` (its own `alert.created`); `resolved`: a later reading contradicted it and FDP closed it; `acknowledged` or `dismissed` (as a false alarm) by a person in the dashboard.
             * @enum {string}
             */
            change: "occurred_again" | "escalated" | "resolved" | "acknowledged" | "dismissed";
            /** @description With `escalated`: the new, more severe alert's id. */
            escalated_to?: string;
        };
        CertificateGeneratedPayload: {
            /** @enum {string} */
            type: "certificate.generated";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["CertificateGeneratedData"];
        };
        CertificateGeneratedData: {
            /** @description The vehicle the event is about. */
            device_id: string;
            certificate_number: string;
            grade: string;
            /** Format: date-time */
            generated_at: string;
            /** Format: date-time */
            expires_at: string;
        };
        CertificateRevokedPayload: {
            /** @enum {string} */
            type: "certificate.revoked";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["CertificateRevokedData"];
        };
        CertificateRevokedData: {
            /** @description The vehicle the event is about. */
            device_id: string;
            certificate_number: string;
            /** Format: date-time */
            revoked_at: string;
        };
        DeviceCreatedPayload: {
            /** @enum {string} */
            type: "device.created";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["DeviceCreatedData"];
        };
        DeviceCreatedData: {
            /** @description The vehicle the event is about. */
            device_id: string;
        };
        /** @description Optional `raw_data.vehicle`: upserted into the device's master data. */
        VehicleMasterData: {
            make?: string | null;
            model?: string | null;
            year?: number | null;
            /** @enum {string|null} */
            powertrain?: "BEV" | "PHEV" | "HEV" | "ICE" | null;
            fuel_type?: string | null;
            battery_kwh?: number | null;
            original_price_eur?: number | null;
            contract_km?: number | null;
            /** Format: date */
            lease_start?: string | null;
            lease_months?: number | null;
            /** @enum {string|null} */
            asset_class?: "passenger_car" | "light_commercial" | "heavy_truck" | "other" | null;
        };
        /** @description A known driving event in `raw_data.events`; other kinds are kept as sent and ignored by the scores. */
        DrivingEvent: {
            /** @enum {string} */
            kind: "harsh_braking" | "harsh_acceleration" | "harsh_cornering" | "overspeed";
            /**
             * Format: date-time
             * @description Device time of the event, RFC 3339 with offset, from 2000-01-01T00:00:00Z to at most 10 minutes after FDP receives it.
             */
            ts: string;
            value: number;
            duration_s?: number | null;
        };
        /** @description A driving event of a kind FDP does not know: kept in `raw_data` as sent, ignored by the scores. */
        OtherDrivingEvent: {
            /** @description Any non-blank kind other than the known ones. */
            kind: string;
        } & {
            [key: string]: unknown;
        };
        FleetList: {
            data: components["schemas"]["FleetRecord"][];
            /** @description Equals data.length. */
            count: number;
            tenant_id: string;
        };
        FleetRecord: {
            device_id: string;
            device_name: string;
            /** @description km/h; null when the device has not reported it. */
            vehicle_speed: number | null;
            /** @description Volts (12 V system or traction pack as reported); null when unknown. */
            battery_voltage: number | null;
            lat: number | null;
            lon: number | null;
            /**
             * @description `offline` when the latest state is older than 24 h.
             * @enum {string}
             */
            status: "driving" | "idle" | "parked" | "charging" | "offline";
            /**
             * @description Severity of the highest unacknowledged alert.
             * @enum {string}
             */
            alert_level: "none" | "info" | "warning" | "critical";
            /** @description Ambient temperature, °C; null when unknown. */
            weather_temp: number | null;
            /** @description 1 on, 0 off. */
            ignition: 0 | 1;
            /**
             * Format: date-time
             * @description Device timestamp of the latest state.
             */
            updated_at: string;
        };
        /** @description CONTRACT error envelope. */
        Error: {
            /** @enum {string} */
            error: "invalid_request" | "unauthorized" | "invalid_signature" | "forbidden" | "not_found" | "payload_too_large" | "unsupported_media_type" | "unprocessable" | "rate_limited" | "internal_error" | "upstream_unavailable" | "service_unavailable" | "request_timeout";
            message: string;
            details?: {
                field: string;
                message: string;
            }[];
            request_id?: string;
            /** @enum {boolean} */
            _sandbox?: true;
        };
        AlertList: {
            data: components["schemas"]["Alert"][];
            /** @description Equals data.length. */
            count: number;
            tenant_id: string;
        };
        Alert: {
            id: string;
            device_id: string;
            /** @description Detector that raised the alert: battery, diagnostics, driving, odometer_integrity, charging. */
            agent: string;
            /** @enum {string} */
            severity: "CRITICAL" | "WARNING" | "INFO";
            prediction: string;
            confidence: number;
            /** @description The evidence: values, thresholds, timestamps of the latest occurrence, and the alert's lifecycle: `occurrences`, `first_occurrence_at`, `last_occurrence_at` (device time), `worst_value` and `latest_value` of the measure named by `value_field` (`worse_when`: higher or lower). */
            technical_data: {
                [key: string]: unknown;
            };
            acknowledged: boolean;
            acknowledged_by: string | null;
            /** Format: date-time */
            acknowledged_at: string | null;
            /** Format: date-time */
            created_at: string;
        };
        /** @description Fleet risk score (docs/methodology/fleet-risk.md). */
        FleetRiskScore: {
            /** @description 0–100, one decimal, higher = riskier. */
            fleet_risk_score: number;
            score_version: string;
            /** @enum {string} */
            confidence: "high" | "medium" | "low";
            period_days: number;
            device_count: number;
            /** @description Alerts created in the period, acknowledged or not. */
            alerts_period: number;
            critical_alerts_period: number;
            severity_distribution: {
                critical: number;
                warning: number;
                info: number;
            };
            scoring_method: string;
            components: {
                event_severity: number;
                weather_exposure: number;
                time_pattern: number;
                speed_compliance: number;
                ev_charging_risk: number;
            };
            limitations: string[];
            /** Format: date-time */
            generated_at: string;
        };
        /** @description Vehicle health score (docs/methodology/vehicle-health.md). */
        VehicleHealthScore: {
            device_id: string;
            /** @description 0–100, one decimal, higher = healthier. */
            vehicle_health_score: number;
            score_version: string;
            /** @enum {string} */
            confidence: "high" | "medium" | "low";
            /** @description Each 0–100; null when the vehicle does not report what the component needs. */
            components: {
                battery: number | null;
                diagnostics: number | null;
                electrical_12v: number | null;
                odometer_integrity: number | null;
                usage: number | null;
            };
            available_signals: ("soh_pct" | "dtc_codes" | "battery_voltage" | "odometer_km")[];
            missing_signals: ("soh_pct" | "dtc_codes" | "battery_voltage" | "odometer_km")[];
            soh_evidence: components["schemas"]["SohEvidence"];
            limitations: string[];
            /** Format: date-time */
            generated_at: string;
        };
        /** @description What the battery's state of health rests on: which reading, how old. */
        SohEvidence: {
            /**
             * @description measured: a plausible reading at most `max_age_days` old is today's value; outdated: the latest plausible reading is older and is not used as today's value (it may still cap, never credit); none: never read; not_applicable: no traction battery whose SoH the OEM reports.
             * @enum {string}
             */
            status: "measured" | "outdated" | "none" | "not_applicable";
            max_age_days: number;
            last_reading_pct: number | null;
            /** Format: date-time */
            last_reading_at: string | null;
            /** @description Whole days between the reading and `generated_at`. */
            age_days: number | null;
            statement: string;
        };
        /** @description Green fleet score (docs/methodology/green-fleet.md). */
        GreenFleetScore: {
            /** @description 0–100, one decimal, higher = greener. */
            green_fleet_score: number;
            score_version: string;
            /** @description Each 0–100; null when it cannot be computed (then left out of the weighting). */
            components: {
                ev_share: number | null;
                co2_intensity: number | null;
                energy_efficiency: number | null;
            };
            limitations: string[];
            /** Format: date-time */
            generated_at: string;
            /** @enum {string} */
            confidence: "high" | "medium" | "low";
        };
        /** @description Battery health snapshot (docs/methodology/battery-snapshot.md). */
        BatteryHealthSnapshot: {
            device_id: string;
            snapshot: {
                soc_current_pct: number | null;
                battery_voltage: number | null;
                charging_status: string | null;
                charging_power_kw: number | null;
                estimated_range_km: number | null;
            };
            last_battery_alert: {
                severity: string;
                prediction: string;
                confidence: number;
                /** Format: date-time */
                created_at: string;
            } | null;
            /** @description Numbers that cannot be known are null and named in `missing_fields`. */
            data_quality: {
                method_version: string;
                missing_fields: string[];
                not_applicable_fields: string[];
                /** Format: date-time */
                latest_telemetry_at: string | null;
                data_age_seconds: number | null;
                /** @enum {string} */
                freshness: "fresh" | "recent" | "stale" | "none";
                /** @description Only a reading at most 90 days old (see `soh_evidence`); otherwise null and listed in `missing_fields`. */
                soh_pct: number | null;
                /** @enum {string|null} */
                soh_source: "oem_bms" | null;
                /** Format: date-time */
                soh_reported_at: string | null;
                soh_evidence: components["schemas"]["SohEvidence"];
                /** @enum {string|null} */
                powertrain: "BEV" | "PHEV" | "HEV" | "ICE" | null;
                has_traction_battery: boolean | null;
                /** @description State of health readings set aside as implausible. */
                excluded_readings: components["schemas"]["ExcludedReading"][];
                range_model: {
                    consumption_kwh_per_km: number;
                    temperature_c: number | null;
                    temperature_assumed: boolean;
                    cold_penalty_pct: number;
                    soh_applied: boolean;
                } | null;
            };
            /** Format: date-time */
            generated_at: string;
        };
        ExcludedReading: {
            /** @enum {string} */
            signal: "soh_pct";
            value: number;
            /** Format: date-time */
            at: string;
            /** @enum {string} */
            reason: "implausible_value" | "unconfirmed_jump";
            statement: string;
        };
        /** @description End-of-life (lease return) condition summary (docs/methodology/eol-summary.md). */
        EolSummary: {
            device_id: string;
            /** @enum {string} */
            condition_grade: "A" | "B" | "C" | "D" | "F";
            /** @description null when no health signal was measured (the grade is then a placeholder, confidence low). */
            vehicle_health_score: number | null;
            /**
             * @description How far the grade rests on measured evidence (an FDP addition to SPEC 2.7).
             * @enum {string}
             */
            confidence: "high" | "medium" | "low";
            knockout_evidence: components["schemas"]["KnockoutEvidence"][];
            excluded_readings: components["schemas"]["ExcludedReading"][];
            soh_evidence: components["schemas"]["SohEvidence"];
            limitations: string[];
            /** Format: date-time */
            generated_at: string;
        };
        KnockoutEvidence: {
            /** @enum {string} */
            knockout: "soh_below_60" | "odometer_manipulation";
            statement: string;
            readings: {
                /** @description highest_earlier, first_lower, latest (odometer); latest_plausible_soh (SoH). */
                role: string;
                value: number;
                /** @enum {string} */
                unit: "km" | "%";
                /** Format: date-time */
                at: string;
            }[];
            /** @description Odometer: readings from the first lower one through the latest. */
            readings_since?: number;
        };
        ScoresBatchResponse: {
            results: components["schemas"]["ScoresBatchItem"][];
            meta: {
                total: number;
                processed: number;
                errors: number;
                scores_requested: ("fleet_risk" | "vehicle_health" | "green_fleet" | "battery_health" | "eol_summary")[];
            };
            /** Format: date-time */
            generated_at: string;
        };
        ScoresBatchItem: {
            device_id: string;
            fleet_risk?: components["schemas"]["FleetRiskScore"];
            vehicle_health?: components["schemas"]["VehicleHealthScore"];
            green_fleet?: components["schemas"]["GreenFleetScore"];
            battery_health?: components["schemas"]["BatteryHealthSnapshot"];
            eol_summary?: components["schemas"]["EolSummary"];
            /** @description Present (and no score keys) when this device failed. */
            error?: {
                error: string;
                message: string;
            };
        };
        ScoresBatchRequest: {
            /**
             * @description 1–100 device ids of the key's tenant, answered in this order; an unknown one is an item with an `error`, not a failed batch.
             * @example [
             *       "sbx-001",
             *       "sbx-015"
             *     ]
             */
            device_ids: string[];
            /**
             * @description Which scores to compute for each device; default: all five.
             * @example [
             *       "vehicle_health",
             *       "eol_summary"
             *     ]
             */
            scores?: ("fleet_risk" | "vehicle_health" | "green_fleet" | "battery_health" | "eol_summary")[];
        };
        /** @description `device_count` is the number of distinct devices in the payload. */
        OemIngestResponse: {
            /** @enum {boolean} */
            accepted: true;
            device_count: number;
            tenant_id: string;
        };
        OemIngestRequest: {
            vehicles: components["schemas"]["OemTelemetryRecord"][];
            source?: string;
            /** @description Lowercase hex HMAC-SHA256 of the RFC 8785 canonical JSON of the body without this member. */
            hmac_signature?: string;
        };
        OemTelemetryRecord: {
            vin: string;
            /** @description Defaults to `oem-<vin>`. */
            device_id?: string;
            /**
             * Format: date-time
             * @description Device time of the record (default: the time FDP received it), RFC 3339 with offset, from 2000-01-01T00:00:00Z to at most 10 minutes after FDP receives it.
             */
            timestamp?: string;
            odometer_km?: number | null;
            soc_percent?: number | null;
            soh_percent?: number | null;
            battery_voltage?: number | null;
            charging_status?: string | null;
            lat?: number | null;
            lon?: number | null;
            speed_kmh?: number | null;
            fuel_level_pct?: number | null;
            engine_hours?: number | null;
            dtc_codes?: string[] | null;
            /** @description Pass-through OEM fields, stored as sent: at most 16 levels deep, no NUL characters or lone surrogates in strings or names, finite numbers. The members below are read by FDP and validated; any other member passes through. */
            raw_data?: ({
                /** @description Outside temperature, °C: the fleet record's `weather_temp`. */
                ambient_temp_c?: number | null;
                /** @description Charging power, kW (charging status, energy, the charging detector). */
                charging_power_kw?: number | null;
                /** @description Ignition on/off (boolean or 0/1): the fleet record's `ignition`; else 1 when the speed is above 0. */
                ignition?: boolean | (0 | 1) | null;
                /** @description Chemistry of the 12 V / auxiliary battery (e.g. `lead_acid`, `AGM`, `lithium-ion`, `LFP`): a lithium pack is not judged on the lead-acid resting-voltage curve (docs/methodology/vehicle-health.md). */
                lv_battery_chemistry?: string | null;
                vehicle?: components["schemas"]["VehicleMasterData"] | null;
                /** @description Driving events reported by the OEM: known kinds (harsh_braking, harsh_acceleration, harsh_cornering, overspeed) are validated and scored, other kinds are kept as sent. An empty array says the source reports events and there were none. */
                events?: (components["schemas"]["DrivingEvent"] | components["schemas"]["OtherDrivingEvent"])[];
            } & {
                [key: string]: unknown;
            }) | null;
        };
        /** @description Total Asset Score (docs/methodology/tas.md). Pillar weights are withheld. */
        TotalAssetScore: {
            device_id: string;
            /** @enum {string} */
            tas_grade: "A" | "B" | "C" | "D" | "E" | "F";
            tas_score: number;
            score_version: string;
            /** @enum {string} */
            confidence: "high" | "medium" | "low";
            pillars: {
                battery_health: {
                    score: number;
                    /** @enum {string} */
                    source: "oem_bms" | "telemetry_derived" | "master_data" | "telemetry_and_master_data" | "insufficient_data" | "not_applicable";
                };
                usage_behaviour: {
                    score: number;
                    /** @enum {string} */
                    source: "oem_bms" | "telemetry_derived" | "master_data" | "telemetry_and_master_data" | "insufficient_data" | "not_applicable";
                };
                contractual_market_risk: {
                    score: number;
                    /** @enum {string} */
                    source: "oem_bms" | "telemetry_derived" | "master_data" | "telemetry_and_master_data" | "insufficient_data" | "not_applicable";
                };
                regulatory_compliance: {
                    score: number;
                    /** @enum {string} */
                    source: "oem_bms" | "telemetry_derived" | "master_data" | "telemetry_and_master_data" | "insufficient_data" | "not_applicable";
                };
            };
            knockout_flags: ("soh_below_60" | "odometer_manipulation")[];
            /** @description The device's asset class (default passenger_car). */
            vertical: string;
            fuel_type: string | null;
            /** @description How fresh and complete the inputs were (an FDP addition to SPEC 2.14). */
            data_quality: {
                /** Format: date-time */
                latest_telemetry_at: string | null;
                data_age_seconds: number | null;
                coverage_pct: number | null;
                freshness: string;
                /** @description The readings behind each knockout flag. */
                knockout_evidence: components["schemas"]["KnockoutEvidence"][];
                /** @description Readings set aside as implausible (not used by any score). */
                excluded_readings: components["schemas"]["ExcludedReading"][];
                /** @description Knockouts set aside because a reviewer dismissed the alert that cited their readings as a false alarm (docs/methodology/tas.md). */
                dismissed_evidence: components["schemas"]["DismissedKnockoutEvidence"][];
            };
            /** Format: date-time */
            generated_at: string;
        };
        DismissedKnockoutEvidence: {
            /** @enum {string} */
            knockout: "soh_below_60" | "odometer_manipulation";
            statement: string;
            readings: {
                /** @description highest_earlier, first_lower, latest (odometer); latest_plausible_soh (SoH). */
                role: string;
                value: number;
                /** @enum {string} */
                unit: "km" | "%";
                /** Format: date-time */
                at: string;
            }[];
            /** @description Odometer: readings from the first lower one through the latest. */
            readings_since?: number;
            /** @description The dismissed alert. */
            alert_id: string;
            /** Format: date-time */
            dismissed_at: string;
            /** @description The reviewer's reason. */
            reason: string;
        };
        TasBatchResponse: {
            results: {
                device_id: string;
                /** @enum {string|null} */
                tas_grade: "A" | "B" | "C" | "D" | "E" | "F" | null;
                tas_score: number | null;
                /** @enum {string|null} */
                confidence: "high" | "medium" | "low" | null;
                error: string | null;
            }[];
            meta: {
                total: number;
                scored: number;
                errors: number;
                score_version: string;
            };
            /** Format: date-time */
            generated_at: string;
        };
        TasBatchRequest: {
            /**
             * @description 1–1000 device ids of the key's tenant, answered in this order; an unknown one has null scores and an `error`.
             * @example [
             *       "sbx-001",
             *       "sbx-015"
             *     ]
             */
            device_ids: string[];
        };
        /** @description Rule-based residual value estimate (docs/methodology/residual-value.md). */
        ResidualValue: {
            device_id: string;
            /** @description Versioned method id, e.g. rv-rules-2027.01; a new id whenever the rules or their constants change. */
            estimation_method: string;
            /** @description Estimated value as a percentage of the original list price, 0–100, one decimal. */
            estimated_residual_pct: number;
            /** @description original_price_eur × estimated_residual_pct, whole euros; null when the device's master data has no original_price_eur. */
            estimated_residual_eur: number | null;
            /** @enum {string} */
            confidence: "low" | "medium" | "high";
            /** @description The inputs the estimate used. */
            factors: {
                /** @description From lease_start or the model year (see data_quality.age_basis); null when neither is known. */
                age_months: number | null;
                /** @description The mileage the estimate used: the latest plausible odometer reading; assumed (and named in missing_fields) when none exists. */
                mileage_km: number;
                battery_soh_pct: number | null;
                vehicle_health_score: number | null;
                fleet_risk_score: number | null;
                green_fleet_score: number | null;
                /**
                 * @description EOL condition grade; null when nothing was measured (the EOL placeholder grade certifies nothing).
                 * @enum {string|null}
                 */
                eol_grade: "A" | "B" | "C" | "D" | "F" | null;
            };
            depreciation_curve: {
                method: string;
                /** @description The curve's depreciation rate in the vehicle's current year of life. */
                annual_rate_pct: number;
                /** @description Percent of the curve value lost to a state of health below the expected one for the age (negative: a bounded credit). */
                battery_penalty_pct: number;
                /** @description Percent of the curve value lost to mileage above the normal one for the age (negative: a bounded credit). */
                mileage_penalty_pct: number;
            };
            /** @description FDP addition: the bounded adjustments from the vehicle's scores and the knockout penalty, in percent of the value after penalties. */
            adjustments: {
                vehicle_health_pct: number;
                fleet_risk_pct: number;
                green_fleet_pct: number;
                /** @description Sum of the score adjustments, bounded. */
                total_pct: number;
                knockout_penalty_pct: number;
            };
            /** @description FDP addition: EOL knockouts (grade F on evidence) that this estimate reflects. */
            knockouts: ("soh_below_60" | "odometer_manipulation")[];
            data_quality: {
                completeness_pct: number;
                missing_fields: string[];
                /**
                 * @description FDP addition: where the age came from.
                 * @enum {string}
                 */
                age_basis: "lease_start" | "year" | "mileage" | "assumed";
                /**
                 * @description FDP addition: measured (a plausible SoH reading at most 90 days old priced in), outdated (the latest reading is older: not today's SoH; it bounds it from above, so its penalty applies but no credit; confidence at most medium), not_measured (a plug-in or unknown powertrain without one: no battery adjustment, confidence at most medium), not_applicable (ICE, HEV).
                 * @enum {string}
                 */
                battery_soh_status: "measured" | "outdated" | "not_measured" | "not_applicable";
                /** @description FDP addition: what the estimate could not see, in words (e.g. the battery's state of health not measured). */
                notes: string[];
            };
            disclaimer: string;
            /** Format: date-time */
            generated_at: string;
        };
        /** @description Model-based residual value (docs/methodology/residual-value-model.md). */
        ResidualValuePrediction: {
            device_id: string;
            /** @description Predicted value retained, percent of the original price, one decimal. */
            estimated_residual_pct: number;
            /** @description estimated_residual_pct × original_price_eur, whole euros; null without a known original price. */
            estimated_residual_eur: number | null;
            original_price_eur: number | null;
            /**
             * @description From the prediction interval's width, the inputs known and the calibration range; `confidence_reasons` says why it is not high.
             * @enum {string}
             */
            confidence: "high" | "medium" | "low";
            /**
             * @description high: every model input supplied or derived; medium: one missing; low: two or more. Details in `inputs`.
             * @enum {string}
             */
            data_quality: "high" | "medium" | "low";
            model_version: string;
            /** @description The inputs that moved this prediction away from a typical vehicle of its age, and which way; never weights. Null for tenants without the `residual_factors` entitlement. */
            factors: {
                feature: string;
                /** @enum {string} */
                direction: "positive" | "negative";
            }[] | null;
            /** Format: date-time */
            generated_at: string;
            /** @description The price basis of the estimate: trade_de (trade value, Germany: the basis the rule-based curve is calibrated on). */
            price_basis: string;
            /**
             * @description model: the model beat the rule-based method out of sample (see validation) and gives the estimate; rule_based: it did not, and the estimate is the rule-based value (the model's adjustment is in limitations).
             * @enum {string}
             */
            estimate_source: "model" | "rule_based";
            /** @description The rule-based value for the same inputs (the model's prior: age curve × mileage × battery, no score adjustments), one decimal. */
            rule_based_pct: number;
            /** @description Why the confidence is below high, each prefixed with the level it caps to, in words (empty when high). */
            confidence_reasons: string[];
            /** @description How the model did out of sample on the published calibration rows (docs/methodology/residual-value-model.md): mean absolute errors in percentage points. */
            validation: {
                scheme: string;
                published_rows: number;
                model_mae_pp: number;
                rule_based_mae_pp: number;
                rule_based_on_row_basis_mae_pp: number;
                model_beats_rule_based: boolean;
            };
            /** @description Prediction interval of estimated_residual_pct (level 0.8), from the held-out errors of the validation. */
            prediction_interval: {
                level: number;
                low_pct: number;
                high_pct: number;
                method: string;
            };
            /** @description Each query parameter: supplied, derived or missing, and the value used. */
            inputs: {
                make?: components["schemas"]["ResidualModelInput"];
                model?: components["schemas"]["ResidualModelInput"];
                year?: components["schemas"]["ResidualModelInput"];
                powertrain?: components["schemas"]["ResidualModelInput"];
                age_months?: components["schemas"]["ResidualModelInput"];
                odometer_km?: components["schemas"]["ResidualModelInput"];
                battery_soh_pct?: components["schemas"]["ResidualModelInput"];
                battery_kwh?: components["schemas"]["ResidualModelInput"];
                original_price_eur?: components["schemas"]["ResidualModelInput"];
                electric_range_km?: components["schemas"]["ResidualModelInput"];
                power_kw?: components["schemas"]["ResidualModelInput"];
                mass_kg?: components["schemas"]["ResidualModelInput"];
            };
            limitations: string[];
        };
        ResidualModelInput: {
            /**
             * @description supplied (query), derived (FDP's master data or telemetry), missing.
             * @enum {string}
             */
            status: "supplied" | "derived" | "missing";
            /** @description The value used; for a missing model input, the typical value filled in (see `source`). */
            value: number | string | null;
            /** @description Where the value came from, e.g. `query`, `master_data.lease_start`, `telemetry.latest_odometer`, `imputed.typical_for_age`. */
            source: string;
            used_by_model: boolean;
        };
        /** @description Mileage forecast to the lease end (SPEC 2.15; docs/methodology/mileage-forecast.md). */
        MileageForecast: {
            device_id: string;
            /** @description The plausible series at the latest plausible odometer reading (km): the reading itself, or after an odometer rollback the reading plus the km wound back (the series continued from the pre-rollback baseline; odometer_reading_km is what the odometer shows, distance_method says so). 0 by convention without any reading (forecast_basis population_prior, current_km_at null). */
            current_km: number;
            /** @description Forecast odometer at the end of the lease's last day (km). */
            predicted_end_km: number;
            /** @description The contract's km limit used: the query's, else the master data's; null when neither is known. */
            contract_km: number | null;
            /** @description max(0, predicted_end_km − contract_km); null without a contract limit. */
            overage_km: number | null;
            /** @description Probability (0–100) that the odometer at the lease end exceeds contract_km under the forecast's model; 0 without a contract limit (see risk_basis). */
            risk_score: number;
            /** @description Central prediction interval of the end odometer at interval_level_pct (80 %). */
            confidence_interval: {
                lower: number;
                upper: number;
            };
            forecast_method: string;
            /** @enum {string} */
            data_quality: "high" | "medium" | "low";
            /** Format: date-time */
            generated_at: string;
            interval_level_pct: number;
            /** @enum {string} */
            risk_basis: "contract_km" | "no_contract_limit";
            /**
             * Format: date-time
             * @description Device time (RFC 3339, UTC) of the latest plausible odometer reading current_km is at; null when the device has no odometer reading (current_km is then 0 by convention).
             */
            current_km_at: string | null;
            /** @description The latest plausible odometer reading as the odometer shows it (km); equal to current_km unless the odometer had a rollback (then lower by rolled_back_km); null without a reading. */
            odometer_reading_km: number | null;
            /** @description Km the odometer was wound back in the history read (rollbacks or resets no later reading contradicted), added back in current_km; 0 without a rollback. */
            rolled_back_km: number;
            /**
             * @description How the series was measured (lib/vocabulary/distance.ts): `odometer`: every reading plausible; `odometer_plausible_increases`: readings set aside (a rollback or reset, one-sample spikes, implausible jumps, contradicted drops; limitations names them) and the series is the sum of plausible increases; `none`: no odometer reading.
             * @enum {string}
             */
            distance_method: "odometer" | "odometer_plausible_increases" | "none";
            /**
             * @description `history`: the device's own trend; `population_prior`: fewer than two days of readings, the Finnish average car's distance (data_quality low).
             * @enum {string}
             */
            forecast_basis: "history" | "population_prior";
            /** @description Average km per day over the history the trend read. */
            daily_rate_km: number;
            /** @description Calendar days the usable history covers (up to 365 before the latest reading). */
            history_days: number;
            /** @description Days with at least one plausible odometer reading. */
            reading_days: number;
            /** @description Days from current_km_at to the lease end. */
            horizon_days: number;
            /**
             * Format: date
             * @description The day predicted_end_km is for: the lease's last day, else 365 days from today (forecast_end_basis).
             */
            forecast_end: string;
            /** @enum {string} */
            forecast_end_basis: "lease_end" | "default_horizon";
            contract: {
                /** @enum {string|null} */
                contract_km_source: "query" | "master_data" | null;
                lease_months: number | null;
                /** @enum {string|null} */
                lease_months_source: "query" | "master_data" | null;
                /** Format: date */
                lease_start: string;
                /** @enum {string} */
                lease_start_source: "master_data" | "first_odometer_day" | "registered_in_fdp";
                /**
                 * Format: date
                 * @description The lease's last day (lease_start + lease_months − 1 day); null without a lease duration.
                 */
                lease_end: string | null;
            };
            limitations: string[];
        };
        /** @description A new certificate (SPEC 2.10, generated form). */
        GeneratedCertificate: {
            certificate_number: string;
            device_id: string;
            /** @enum {string} */
            grade: "A" | "B" | "C" | "D" | "F";
            vehicle_health_score: number | null;
            residual_value_pct: number | null;
            data_snapshot: components["schemas"]["CertificateSnapshot"];
            /** Format: date-time */
            generated_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @enum {string} */
            confidence: "high" | "medium" | "low";
            verify_url: string;
            verify_hash: string;
            pdf_base64: string | null;
            signature: components["schemas"]["CertificateSignature"];
            /** @description The signing key's id in /.well-known/fdp-certificate-keys.json (the JWS header's `kid`). */
            key_id: string;
            /** @description Compact JWS with detached payload (`<header>..<signature>`, RFC 7515 appendix F), alg EdDSA, `kid` in the protected header; the payload is the UTF-8 bytes of the RFC 8785 canonical JSON that `verify_hash` hashes. null for certificates issued before issue 27. */
            jws: string | null;
        };
        /** @description What the certificate states about the vehicle, printed in full on its PDF. */
        CertificateSnapshot: {
            /** @description Layout of this snapshot, e.g. `fdp-certificate-2027.01`. */
            format: string;
            vehicle: {
                name: string;
                vin: string | null;
                make: string | null;
                model: string | null;
                model_year: number | null;
                /** @enum {string|null} */
                powertrain: "BEV" | "PHEV" | "HEV" | "ICE" | null;
                asset_class: string;
            };
            odometer: {
                odometer_km: number | null;
                /** Format: date-time */
                read_at: string | null;
                manipulation_found: boolean;
            };
            condition: {
                /** @enum {string} */
                grade: "A" | "B" | "C" | "D" | "F";
                /** @enum {string} */
                confidence: "high" | "medium" | "low";
                knockouts: {
                    knockout: string;
                    statement: string;
                }[];
            };
            vehicle_health: {
                score: number | null;
                /** @enum {string} */
                confidence: "high" | "medium" | "low";
                components: {
                    [key: string]: number | null;
                };
            };
            battery: components["schemas"]["CertificateBattery"];
            residual_value: {
                estimated_residual_pct: number | null;
                /** @enum {string|null} */
                confidence: "high" | "medium" | "low" | null;
                age_months: number | null;
                mileage_km: number | null;
            };
            /**
             * Format: date-time
             * @description Device time of the newest telemetry the certificate rests on.
             */
            data_as_of: string | null;
            /** @description Version of every score and model used, by output. */
            methods: {
                [key: string]: string;
            };
        };
        CertificateBattery: {
            has_traction_battery: boolean | null;
            state_of_health: {
                value_pct: number | null;
                /** @enum {string} */
                measured_by: "oem_bms_readout" | "fdp_estimate" | "master_data" | "not_measured";
                definition: string;
                /** Format: date-time */
                measured_at: string | null;
                /** @description Half-width of the band around the value; null when the source does not state one (a BMS readout). */
                uncertainty_pct: number | null;
                /** @description The EU Battery Passport attribute this figure corresponds to, or null when the definitions differ (then `definition` says how). */
                battery_passport_attribute: string | null;
                readings_set_aside: number;
                /** @description Which reading the state of health rests on and how old it was at `generated_at` (format fdp-certificate-2027.02 on; absent in older certificates). */
                evidence?: {
                    /**
                     * @description measured: a plausible reading at most `max_age_days` old is today's value; outdated: the latest plausible reading is older and is not used as today's value (it may still cap, never credit); none: never read; not_applicable: no traction battery whose SoH the OEM reports.
                     * @enum {string}
                     */
                    status: "measured" | "outdated" | "none" | "not_applicable";
                    max_age_days: number;
                    last_reading_pct: number | null;
                    /** Format: date-time */
                    last_reading_at: string | null;
                    /** @description Whole days between the reading and `generated_at`. */
                    age_days: number | null;
                    statement: string;
                };
            };
            /** @description Battery Passport `stateOfCharge` (Battery Pass data model, PerformanceAndDurability). */
            stateOfCharge: {
                value_pct: number | null;
                /** @enum {string} */
                measured_by: "oem_bms_readout" | "fdp_estimate" | "master_data" | "not_measured";
                /** Format: date-time */
                measured_at: string | null;
            };
            /** @description Battery Passport `ratedEnergy`: the usable capacity declared in the vehicle's master data. */
            ratedEnergy: {
                value_kwh: number | null;
                /** @enum {string} */
                measured_by: "oem_bms_readout" | "fdp_estimate" | "master_data" | "not_measured";
            };
        };
        CertificateSignature: {
            /**
             * @description EdDSA: the signature of `jws` (RFC 7515 with detached payload, RFC 8037), from format fdp-certificate-2027.02 on. Ed25519: a certificate issued before: `value` is a raw Ed25519 signature over the canonical bytes and `jws` is null.
             * @enum {string}
             */
            alg: "EdDSA" | "Ed25519";
            /** @description Key id (RFC 7638 thumbprint) in /.well-known/fdp-certificate-keys.json. */
            kid: string;
            /** @description base64url Ed25519 signature (for EdDSA: the JWS's third part). */
            value: string;
            keys_url: string;
        };
        /** @description A stored certificate (SPEC 2.10, retrieved form), unchanged since generation. */
        RetrievedCertificate: {
            certificate_number: string;
            device_id: string;
            /** @enum {string} */
            grade: "A" | "B" | "C" | "D" | "F";
            vehicle_health_score: number | null;
            residual_value_pct: number | null;
            data_snapshot: components["schemas"]["CertificateSnapshot"];
            /** Format: date-time */
            generated_at: string;
            /** Format: date-time */
            expires_at: string;
            verify_hash: string;
            is_expired: boolean;
            /** Format: date-time */
            revoked_at: string | null;
            revocation_reason: string | null;
            signature: components["schemas"]["CertificateSignature"];
            /** @description The signing key's id in /.well-known/fdp-certificate-keys.json (the JWS header's `kid`). */
            key_id: string;
            /** @description Compact JWS with detached payload (`<header>..<signature>`, RFC 7515 appendix F), alg EdDSA, `kid` in the protected header; the payload is the UTF-8 bytes of the RFC 8785 canonical JSON that `verify_hash` hashes. null for certificates issued before issue 27. */
            jws: string | null;
        };
        /** @description Public verification: the certificate's status and what the certificate itself states; never the tenant. */
        CertificateVerification: {
            certificate_number: string;
            device_id: string;
            /** @enum {string} */
            grade: "A" | "B" | "C" | "D" | "F";
            vehicle_health_score: number | null;
            residual_value_pct: number | null;
            data_snapshot: components["schemas"]["CertificateSnapshot"];
            /** Format: date-time */
            generated_at: string;
            /** Format: date-time */
            expires_at: string;
            /** @enum {string} */
            status: "valid" | "expired" | "revoked" | "invalid";
            verify_hash: string;
            /** Format: date-time */
            revoked_at: string | null;
            revocation_reason: string | null;
            /** @description Why the status is revoked or invalid, in words (the certificate's or its key's revocation, or the key's validity); null when valid or expired. */
            status_reason: string | null;
            signature: components["schemas"]["CertificateSignature"];
            /** @description The signing key's id in /.well-known/fdp-certificate-keys.json (the JWS header's `kid`). */
            key_id: string;
            /** @description Compact JWS with detached payload (`<header>..<signature>`, RFC 7515 appendix F), alg EdDSA, `kid` in the protected header; the payload is the UTF-8 bytes of the RFC 8785 canonical JSON that `verify_hash` hashes. null for certificates issued before issue 27. */
            jws: string | null;
            /** @description SHA-256 of the certificate's PDF as FDP issued it: a copy with other bytes is not the original. */
            pdf_sha256: string;
        };
        GordonLoebResult: {
            /** @description Versioned method id. */
            method: string;
            inputs: components["schemas"]["GordonLoebRequest"];
            /** @description v·L: the expected loss without further investment. */
            expected_loss_eur: number;
            /** @description (1/e)·v·L: the Gordon–Loeb bound; the optimal investment is below it for classes I and II. */
            max_optimal_investment_eur: number;
            /** @description Null without `breach_function`. */
            optimum: {
                /** @description z*: the investment that maximises ENBIS (closed form). */
                investment_eur: number;
                /** @description S(z*, v). */
                vulnerability_after: number;
                /** @description [v − S(z*, v)]·L. */
                loss_reduction_eur: number;
                /** @description ENBIS(z*) = [v − S(z*, v)]·L − z*. */
                enbis_eur: number;
                /** @description z* / (v·L); at most 1/e ≈ 0.368. */
                share_of_expected_loss: number;
            } | null;
            /** @description Null without `proposed_investment_eur`. */
            proposed: {
                investment_eur: number;
                /** @description z ≤ (1/e)·v·L. */
                within_bound: boolean;
                /** @description S(z, v); null without `breach_function`. */
                vulnerability_after: number | null;
                /** @description [v − S(z, v)]·L; null without `breach_function`. */
                loss_reduction_eur: number | null;
                /** @description [v − S(z, v)]·L − z; null without `breach_function`. */
                enbis_eur: number | null;
                /** @description (loss reduction − z) / z, a fraction (0.5 = 50 %); null without `breach_function` or for z = 0. */
                roi: number | null;
            } | null;
            interpretation: string;
            sources: string[];
        };
        GordonLoebRequest: {
            /** @description v, 0–1: probability that a realised threat breaches the information set without further investment. */
            vulnerability: number;
            /** @description L, EUR > 0: the loss should a breach occur. */
            potential_loss_eur: number;
            /** @description The breach probability function S(z, v). Without it only the expected loss and the 1/e bound are computed. */
            breach_function?: {
                /** @enum {string} */
                class: "I";
                /** @description α > 0, per EUR: how quickly investment reduces the breach probability. */
                alpha: number;
                /** @description β > 0: the curvature of S in the investment (the paper takes β ≥ 1). */
                beta: number;
            } | {
                /** @enum {string} */
                class: "II";
                /** @description α > 0, per EUR: how quickly investment reduces the breach probability. */
                alpha: number;
            };
            /** @description z, EUR ≥ 0: an investment to appraise (ENBIS and ROI need `breach_function`). */
            proposed_investment_eur?: number;
        };
        CommissionResult: {
            /** @description Versioned method id. */
            method: string;
            inputs: {
                contributed_capital_eur: number;
                committed_capital_eur: number | null;
                total_distributions_eur: number;
                preferred_return_pct: number;
                holding_period_years: number;
                /** @enum {string} */
                compounding: "annual" | "simple";
                carry_pct: number;
                catch_up_pct: number;
                gp_commitment_pct: number;
            };
            /** @description The investors' contributed capital (without the GP commitment). */
            lp_capital_eur: number;
            /** @description The distributions that run through the waterfall (without the GP commitment's pro-rata share). */
            lp_distributions_eur: number;
            /** @description lp_distributions_eur − lp_capital_eur (negative for a loss). */
            profit_eur: number;
            /** @description The hurdle amount the investors are owed before any carry. */
            preferred_return_due_eur: number;
            /** @description The four tiers in order; an unreached tier has 0. */
            tiers: {
                /** @enum {string} */
                tier: "return_of_capital" | "preferred_return" | "gp_catch_up" | "carried_interest_split";
                total_eur: number;
                to_lps_eur: number;
                to_gp_eur: number;
            }[];
            totals: {
                to_lps_eur: number;
                /** @description Carry plus the GP commitment's distributions. */
                to_gp_eur: number;
                gp_carry_eur: number;
                gp_commitment_distributions_eur: number;
            };
            /** @description gp_carry / profit, %; null without profit. Equals carry_pct once the catch-up is complete. */
            effective_carry_pct: number | null;
            hurdle_met: boolean;
            catch_up_complete: boolean;
            notes: string[];
            sources: string[];
        };
        CommissionRequest: {
            /** @description Capital contributed (drawn down) by all investors, GP commitment included. */
            contributed_capital_eur: number;
            /** @description Committed capital; reported only (the waterfall returns contributed capital). */
            committed_capital_eur?: number;
            /** @description Everything the fund distributes (net proceeds). */
            total_distributions_eur: number;
            /** @description Hurdle rate per year, % (commonly 8). */
            preferred_return_pct: number;
            /** @description Years over which the hurdle accrues on the contributed capital. */
            holding_period_years: number;
            /**
             * @description `annual` (default): C·((1 + h)^T − 1); `simple`: C·h·T.
             * @default annual
             * @enum {string}
             */
            compounding?: "annual" | "simple";
            /**
             * @description Carried interest rate, % (commonly 20).
             * @default 20
             */
            carry_pct?: number;
            /**
             * @description Share of distributions to the GP in the catch-up tier, % (100 = full catch-up; at most carry_pct = none).
             * @default 100
             */
            catch_up_pct?: number;
            /**
             * @description GP's own share of contributed capital, % (carry-free, paid pro rata).
             * @default 0
             */
            gp_commitment_pct?: number;
        };
        EmissionsReport: {
            /** @description First day, YYYY-MM-DD. */
            period_start: string;
            /** @description Last day (inclusive), YYYY-MM-DD. */
            period_end: string;
            total_vehicles: number;
            /** @description BEV and PHEV. */
            ev_count: number;
            /** @description ICE and HEV. */
            ice_count: number;
            total_co2_kg_estimate: number;
            generated_at: string;
            method_version: string;
            factors: {
                version: string;
                used: {
                    id: string;
                    value: number;
                    unit: string;
                    year: number;
                    basis: string;
                    source: string;
                }[];
            };
            vehicles: {
                device_id: string;
                device_name: string;
                /** @enum {string} */
                powertrain: "BEV" | "PHEV" | "HEV" | "ICE" | "unknown";
                distance_km: number;
                /**
                 * @description How distance_km was measured (docs/methodology/emissions.md#distance): `odometer`: Odometer: every consecutive reading plausible, no reading set aside (the sum of increases is last minus first); `odometer_plausible_increases`: Odometer, sum of plausible increases: readings were set aside (a rollback or reset, a one-sample spike, an implausible jump or a contradicted drop) and the distance is the sum of the plausible consecutive increases; `gps_great_circle`: GPS great-circle: no usable odometer (fewer than two plausible readings, or its increases do not cover the positions' distance), the haversine sum over consecutive plausible positions (a lower bound of the road distance); `none`: No distance data in the period: neither two plausible odometer readings nor positions.
                 * @enum {string}
                 */
                distance_method: "odometer" | "odometer_plausible_increases" | "gps_great_circle" | "none";
                /** @description One sentence for an auditor: what was measured, what was set aside (a rollback or reset with its readings, spikes, jumps) or why the odometer was not used. */
                distance_note: string;
                /** @description What the period's readings said about the distance, for an auditor's check of distance_method. */
                distance_evidence: {
                    /** @description Sum of the odometer's plausible consecutive increases in the period, km; null without two plausible readings. */
                    odometer_km: number | null;
                    /** @description Plausible odometer readings in the period (one-sample spikes excluded). */
                    odometer_readings: number;
                    /** @description Readings more than 1 km below the odometer's level that no later reading contradicts (rollback or reset): when, the level and the reading. The step across is not counted; increases are summed on from the lower reading. */
                    odometer_rollbacks: {
                        at: string;
                        from_km: number;
                        to_km: number;
                    }[];
                    /** @description One-sample spike readings set aside (the odometer-integrity detector's rule). */
                    odometer_spikes: number;
                    /** @description Implausible forward jumps (> 50 km at > 250 km/h average), not counted as driven. */
                    odometer_jumps: number;
                    /** @description Drops below the level that later readings contradicted (data errors), set aside. */
                    odometer_contradicted_drops: number;
                    /** @description Great-circle sum over consecutive plausible positions of the period, km (a lower bound of the road distance); null when it was not needed: the odometer has two plausible readings and even the sum over all positions (from the daily rollups, never below the plausible one) is within the margin, so the odometer covers the period. */
                    gps_km: number | null;
                };
                /** @description Electricity at the plug, kWh (charger losses included); 0 for fuel vehicles. */
                energy_kwh: number;
                /** @description Fuel, litres, where a per-litre factor is registered; null otherwise. */
                fuel_l: number | null;
                /** @enum {string} */
                energy_method: "telemetry_soc" | "consumption_factor" | "none";
                co2_kg: number;
                factor_ids: string[];
            }[];
            notes: string[];
        };
        CsrdReport: {
            period: {
                start_date: string;
                end_date: string;
                days: number;
            };
            /**
             * @description The tenant's CSRD reporting role (admin CLI tenant:update --reporting-role): `operator` (default: the fleet's fuel is Scope 1, its charging electricity Scope 2, category 13 not reported) or `lessor` (for the days a vehicle's lease covers, its emissions are Scope 3 category 13, not Scope 1 or 2).
             * @enum {string}
             */
            reporting_role: "operator" | "lessor";
            /** @description The consolidation basis of the role in words (GHG Protocol: operational control, or lessor with category 13). */
            consolidation_basis: string;
            fleet_summary: {
                total_vehicles: number;
                by_powertrain: {
                    BEV: number;
                    PHEV: number;
                    HEV: number;
                    ICE: number;
                    unknown: number;
                };
                /** @description BEV and PHEV. */
                ev_count: number;
                /** @description ICE and HEV. */
                ice_count: number;
                distance_km: number;
                leased_vehicles_in_period: number;
                /** @description ESRS E1-5: energy consumption by source, MWh. */
                energy_consumption: {
                    total: {
                        /** @description MWh; null when it cannot be computed (see notes). */
                        value: number | null;
                        /** @enum {string} */
                        unit: "MWh";
                        /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                        datapoint: string;
                        label: string;
                    };
                    fossil: {
                        /** @description MWh; null when it cannot be computed (see notes). */
                        value: number | null;
                        /** @enum {string} */
                        unit: "MWh";
                        /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                        datapoint: string;
                        label: string;
                    };
                    nuclear: {
                        /** @description MWh; null when it cannot be computed (see notes). */
                        value: number | null;
                        /** @enum {string} */
                        unit: "MWh";
                        /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                        datapoint: string;
                        label: string;
                    };
                    renewable: {
                        /** @description MWh; null when it cannot be computed (see notes). */
                        value: number | null;
                        /** @enum {string} */
                        unit: "MWh";
                        /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                        datapoint: string;
                        label: string;
                    };
                    /** @description Fuel energy of the account's own operation (a lessor: outside the leases). */
                    fuel_mwh: number;
                    fuel_fossil_mwh: number;
                    fuel_renewable_mwh: number;
                    /** @description The Finnish distribution obligation's bio share (Act 446/2007) applied to the fuel energy: a statutory minimum, not a measured blend; per year of the period. */
                    fuel_bio_share: {
                        share: number;
                        basis: string;
                        years: {
                            year: number;
                            /** @description Days of the period in this calendar year. */
                            days: number;
                            /** @description Share of the fuel's energy that is renewable (0–1). */
                            share: number;
                            /**
                             * @description `statutory`: the verified statutory share of the year; `estimate`: the year's statutory level was not verified, the last verified one is applied; `not_split`: before 2021 (double counting), all fuel counted fossil.
                             * @enum {string}
                             */
                            status: "statutory" | "estimate" | "not_split";
                            verified: boolean;
                            source: string;
                        }[];
                    };
                    electricity_mwh: number;
                    /** @description A lessor: the fuel and electricity of the lease-covered days (the lessees' consumption), not in the figures above; 0 for an operator. */
                    leased_out_mwh: number;
                    electricity_mix: {
                        renewable_share: number;
                        nuclear_share: number;
                        fossil_share: number;
                        year: number;
                        basis: string;
                    };
                    /** @description Version of the energy factors (fuel CO2 per kWh, Finnish generation mix). */
                    factors_version: string;
                };
            };
            /** @description ESRS E1-6: gross GHG emissions by scope, tCO2e (gram precision). */
            emissions: {
                /** @enum {string} */
                unit: "tCO2e";
                scope_1: {
                    /** @description tCO2e; null when it cannot be computed (see notes). */
                    value: number | null;
                    /** @enum {string} */
                    unit: "tCO2e";
                    /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                    datapoint: string;
                    label: string;
                };
                scope_2_location_based: {
                    /** @description tCO2e; null when it cannot be computed (see notes). */
                    value: number | null;
                    /** @enum {string} */
                    unit: "tCO2e";
                    /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                    datapoint: string;
                    label: string;
                    /** @description The Finnish grid generation factor Scope 2 location-based uses, with its year, basis and source. */
                    grid_factor: {
                        id: string;
                        /** @description g CO2e per kWh at the plug. */
                        value: number;
                        /** @enum {string} */
                        unit: "g CO2e/kWh";
                        year: number;
                        /** @description `generation (combustion), no upstream`: the GHG Protocol's Scope 2; the upstream is Scope 3 category 3. */
                        basis: string;
                        source: string;
                        /** @description false: the figure could not be checked against its primary source (`note` says what is used instead). */
                        verified: boolean;
                        note: string;
                    };
                };
                scope_2_market_based: {
                    /** @description tCO2e; null when it cannot be computed (see notes). */
                    value: number | null;
                    /** @enum {string} */
                    unit: "tCO2e";
                    /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                    datapoint: string;
                    label: string;
                    contract_factor_g_per_kwh: number | null;
                };
                scope_3: {
                    /** @description tCO2e; null when it cannot be computed (see notes). */
                    value: number | null;
                    /** @enum {string} */
                    unit: "tCO2e";
                    /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                    datapoint: string;
                    label: string;
                };
                scope_3_categories: {
                    cat_3_fuel_and_energy_related: {
                        /** @description tCO2e; null when it cannot be computed (see notes). */
                        value: number | null;
                        /** @enum {string} */
                        unit: "tCO2e";
                        /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                        datapoint: string;
                        label: string;
                        /** @description tCO2e: well-to-tank of the fuels. */
                        fuel_well_to_tank: number;
                        /** @description tCO2e: upstream of the charging electricity (life-cycle − generation). */
                        electricity_upstream: number;
                    };
                    /** @description Lessor: the lease-covered days' emissions, included in the total and not in Scope 1 or 2. Operator: not reported (value null, with the reason). */
                    cat_13_downstream_leased_assets: {
                        /** @description tCO2e; null when it cannot be computed (see notes). */
                        value: number | null;
                        /** @enum {string} */
                        unit: "tCO2e";
                        /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                        datapoint: string;
                        label: string;
                        reported: boolean;
                        included_in_total: boolean;
                        /** @description Why category 13 is not reported (an operator); null when it is. */
                        reason: string | null;
                        /** @description tCO2e: the lessees' Scope 1 and 2 on the covered days (tank-to-wheel and generation). */
                        lessee_scope_1_and_2: number | null;
                        /** @description tCO2e: well-to-tank and electricity upstream on the covered days. */
                        fuel_and_energy_upstream: number | null;
                        /** @description Vehicles with days in category 13 (0 for an operator). */
                        vehicles: number;
                    };
                };
                /** @description Every vehicle whose lease (lease_start + lease_months) covers days of the period: cat_13 + own_operation = its co2_kg in the emissions report ÷ 1000. */
                leased_vehicles: {
                    device_id: string;
                    covered_days: number;
                    covered_share: number;
                    /** @description tCO2e in category 13 (0 for an operator). */
                    cat_13: number;
                    /** @description tCO2e in Scope 1, 2 and category 3. */
                    own_operation: number;
                }[];
                /** @description Scope 1 + Scope 2 (location-based) + Scope 3; equals the emissions report's total_co2_kg_estimate ÷ 1000 for the same dates, in both roles. */
                total_location_based: {
                    /** @description tCO2e; null when it cannot be computed (see notes). */
                    value: number | null;
                    /** @enum {string} */
                    unit: "tCO2e";
                    /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                    datapoint: string;
                    label: string;
                };
                total_market_based: {
                    /** @description tCO2e; null when it cannot be computed (see notes). */
                    value: number | null;
                    /** @enum {string} */
                    unit: "tCO2e";
                    /** @description The ESRS E1 datapoint disclosed (paragraphs of `esrs_version`). */
                    datapoint: string;
                    label: string;
                };
                emissions_report: {
                    total_co2_kg_estimate: number;
                    method_version: string;
                    factors_version: string;
                };
            };
            green_fleet_score: {
                green_fleet_score: number;
                score_version: string;
                /** @enum {string} */
                confidence: "high" | "medium" | "low";
                components: {
                    ev_share: number | null;
                    co2_intensity: number | null;
                    energy_efficiency: number | null;
                };
                weights: {
                    ev_share: number;
                    co2_intensity: number;
                    energy_efficiency: number;
                };
                period_days: number;
                limitations: string[];
            };
            ev_metrics: {
                bev_count: number;
                phev_count: number;
                ev_count: number;
                /** @description EVs among vehicles of known powertrain, %. */
                ev_share_pct: number | null;
                ev_distance_km: number;
                ev_distance_share_pct: number | null;
                electricity_mwh: number;
                /** @description Per calendar month (UTC) of the period: vehicles that reported telemetry, plug-ins among them, and their share of the known powertrains. */
                trend: {
                    month: string;
                    active_vehicles: number;
                    ev_active_vehicles: number;
                    ev_share_pct: number | null;
                }[];
            };
            data_quality: {
                /** @description Vehicles per distance method of the emissions report: `odometer`: Odometer: every consecutive reading plausible, no reading set aside (the sum of increases is last minus first); `odometer_plausible_increases`: Odometer, sum of plausible increases: readings were set aside (a rollback or reset, a one-sample spike, an implausible jump or a contradicted drop) and the distance is the sum of the plausible consecutive increases; `gps_great_circle`: GPS great-circle: no usable odometer (fewer than two plausible readings, or its increases do not cover the positions' distance), the haversine sum over consecutive plausible positions (a lower bound of the road distance); `none`: No distance data in the period: neither two plausible odometer readings nor positions. */
                distance_method: {
                    odometer: number;
                    odometer_plausible_increases: number;
                    gps_great_circle: number;
                    none: number;
                };
                /** @description Vehicles whose odometer had a rollback or reset in the period (their distance is the sum of plausible increases, not the odometer's last minus first). */
                odometer_rollback_vehicles: string[];
                energy_method: {
                    telemetry_soc: number;
                    consumption_factor: number;
                    none: number;
                };
                vehicles_without_data: number;
                limitations: string[];
            };
            generated_at: string;
            method_version: string;
            esrs_version: string;
            notes: string[];
        };
        SpotPrices: {
            /**
             * @description The bidding zone: Finland (Nord Pool day-ahead).
             * @enum {string}
             */
            market: "FI";
            /** @description Where the prices come from: the live source (e.g. `porssisahko.net`), or `recorded:<date>` for the shipped recorded day served when the source is unreachable and nothing is cached (its slots keep their own date: never today's prices). */
            source: string;
            /** @description True when this answer came from the shared cache (fresh within 15 minutes, or stale), false when fetched for this request or recorded. */
            cached: boolean;
            /**
             * Format: date-time
             * @description When the source answered these prices (for the recorded day: when ENTSO-E answered the recorded document, 2024-02-21).
             */
            fetched_at: string;
            /** @description True when the source is down and these are not fresh prices: the last fetched ones, older than 15 minutes (at most 24 h), or the recorded day. */
            stale: boolean;
            /**
             * Format: date-time
             * @description When the prices stopped being fresh (fetched_at + 15 min); null unless stale.
             */
            stale_since: string | null;
            /**
             * @description Length of every slot (ISO 8601): PT15M when the source gives quarter hours.
             * @enum {string}
             */
            resolution: "PT15M" | "PT60M";
            /** @description The VAT rate included in price_cents_kwh: the rate in force on the prices' delivery day (Finland since 1 Sep 2024: 25.5; the recorded day of 21 Feb 2024: 24). */
            vat_rate_pct: number;
            /** @description Slots sorted by start. */
            prices: components["schemas"]["SpotPricePoint"][];
        };
        SpotPricePoint: {
            /**
             * Format: date-time
             * @description Start of the slot (RFC 3339, UTC).
             */
            start: string;
            /**
             * Format: date-time
             * @description End of the slot, exclusive (RFC 3339, UTC).
             */
            end: string;
            /** @description Price in c/kWh INCLUDING Finnish VAT at vat_rate_pct (25.5 % today); the same figure as price_cents_kwh_with_vat. */
            price_cents_kwh: number;
            /** @description c/kWh including VAT at vat_rate_pct. */
            price_cents_kwh_with_vat: number;
            /** @description c/kWh without VAT (with-VAT price / (1 + vat_rate_pct / 100), 3 decimals). */
            price_cents_kwh_without_vat: number;
        };
        ChargingRecommendation: {
            device_id: string;
            /** @enum {string} */
            recommendation: "charge_now" | "charge_later" | "no_charging_needed";
            /** @description The latest state-of-charge reading, %. */
            soc_current_pct: number;
            /**
             * Format: date-time
             * @description When the vehicle reported that state of charge.
             */
            soc_reported_at: string;
            soc_target_pct: number;
            /** @description The level charged at once, whatever the price. */
            soc_min_pct: number;
            /** @description Electricity drawn at the plug to reach the target (charging losses included): what is paid for. */
            energy_needed_kwh: number;
            /** @description Energy stored in the battery: (target − SOC) × capacity × SoH. */
            energy_to_battery_kwh: number;
            /** @description Usable capacity today: nominal capacity (master data) × the latest plausible SoH when known. */
            battery_capacity_kwh: number;
            /**
             * @description `ac` unless the deadline cannot be met on AC.
             * @enum {string}
             */
            charging_mode: "ac" | "dc";
            /** @description Power of the chosen mode at the plug, kW. */
            charging_power_kw: number;
            /** @description Charging time at that power (constant-power model). */
            charging_duration_minutes: number;
            /**
             * Format: date-time
             * @description When the target must be reached.
             */
            deadline: string;
            /** @description The part charged at once to reach soc_min_pct (null when the SOC is already at or above it). */
            immediate_charge: {
                /** Format: date-time */
                start: string;
                /** Format: date-time */
                end: string;
                energy_kwh: number;
            } | null;
            /** @description The cheapest contiguous window for the rest of the charge before the deadline, on the known prices; null without prices (or when the rest needs no window). */
            cheapest_window: {
                /** Format: date-time */
                start: string;
                /** Format: date-time */
                end: string;
                avg_price_cents_kwh: number;
            } | null;
            /**
             * Format: date-time
             * @description Only when no usable prices are known (none, or not covering a window before the deadline): the latest start of the (rest of the) charge at the planned power that still reaches the target a safety margin before the deadline (a quarter of the charging time, at least 60 minutes), rounded down to the minute. The plan then starts there (`charge_later`, or `charge_now` for the part up to the minimum) instead of at once: without prices no time is called cheapest. Null when prices chose the window, when nothing is left to schedule, or when there is no room for the margin (then charge now).
             */
            latest_safe_start: string | null;
            /** @description Spot price of the current slot, c/kWh incl. VAT; null without prices. */
            current_price_cents_kwh: number | null;
            /** @description Energy cost at spot prices incl. VAT of the recommended plan (immediate part + window); grid fees and retail margins excluded. */
            estimated_cost_cheapest_eur: number | null;
            /** @description The same energy charged continuously from now. */
            estimated_cost_now_eur: number | null;
            /** @description (now − cheapest) ÷ now × 100; null when either cost is unknown or the cost now is not positive. */
            savings_pct: number | null;
            /** @description The spot-price source used (`porssisahko.net`, `entsoe`), or null when no live or cached prices were available. */
            price_source: string | null;
            /** @description The recommendation in a plain sentence or two. */
            reason: string;
            method_version: string;
            /** Format: date-time */
            generated_at: string;
        };
        CreatedWebhook: {
            id: string;
            url: string;
            events: ("alert.created" | "alert.updated" | "certificate.generated" | "certificate.revoked" | "device.created")[];
            description: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description `whsec_…`: verifies `webhook-signature` (Standard Webhooks). Shown only in this answer: store it now. */
            secret: string;
        };
        WebhookList: {
            data: components["schemas"]["Webhook"][];
            /** @description Equals data.length. */
            count: number;
            tenant_id: string;
        };
        Webhook: {
            id: string;
            url: string;
            events: ("alert.created" | "alert.updated" | "certificate.generated" | "certificate.revoked" | "device.created")[];
            description: string | null;
            /** Format: date-time */
            created_at: string;
            /** @description The newest event's delivery to this endpoint; null before the first. */
            last_delivery: {
                event_id: string;
                /**
                 * @description `pending` while being sent or retried, then `delivered` or `failed`.
                 * @enum {string}
                 */
                status: "pending" | "delivered" | "failed";
                attempts: number;
                /** Format: date-time */
                last_attempt_at: string | null;
                /** @description The receiver's HTTP status; null when it gave none (timeout, refused connection). */
                last_status_code: number | null;
                last_error: string | null;
            } | null;
        };
        WebhookReplay: {
            webhook_id: string;
            /** Format: date-time */
            since: string;
            /** @description Events queued again for delivery (their `webhook-id`s unchanged), at most 10,000 per call; one already waiting for this endpoint is not queued twice. */
            events: number;
        };
        EventsPage: {
            data: components["schemas"]["Event"][];
            /** @description Pass as `after` for the events after this page (also when it is empty: poll with it). */
            next_cursor: string;
            /** @description More events follow now; false once the page reaches the newest. */
            has_more: boolean;
        };
        Event: {
            /** @description `evt_…`: the `webhook-id` of every delivery of this event (dedupe on it). */
            id: string;
            /** @enum {string} */
            type: "alert.created";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["AlertCreatedData"];
        } | {
            /** @description `evt_…`: the `webhook-id` of every delivery of this event (dedupe on it). */
            id: string;
            /** @enum {string} */
            type: "alert.updated";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["AlertUpdatedData"];
        } | {
            /** @description `evt_…`: the `webhook-id` of every delivery of this event (dedupe on it). */
            id: string;
            /** @enum {string} */
            type: "certificate.generated";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["CertificateGeneratedData"];
        } | {
            /** @description `evt_…`: the `webhook-id` of every delivery of this event (dedupe on it). */
            id: string;
            /** @enum {string} */
            type: "certificate.revoked";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["CertificateRevokedData"];
        } | {
            /** @description `evt_…`: the `webhook-id` of every delivery of this event (dedupe on it). */
            id: string;
            /** @enum {string} */
            type: "device.created";
            /**
             * Format: date-time
             * @description When FDP committed the change.
             */
            timestamp: string;
            data: components["schemas"]["DeviceCreatedData"];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
};
export type $defs = Record<string, never>;
export interface operations {
    listFleet: {
        parameters: {
            query?: {
                /** @description Most vehicles to return, 1–500 (default 100), in `device_id` order. */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "device_id": "oem-XP7JG9KK0TG769883",
                     *           "device_name": "Tesla Model Y Long Range",
                     *           "vehicle_speed": 0,
                     *           "battery_voltage": null,
                     *           "lat": 61.45021,
                     *           "lon": 23.84812,
                     *           "status": "parked",
                     *           "alert_level": "none",
                     *           "weather_temp": -2.5,
                     *           "ignition": 0,
                     *           "updated_at": "2026-11-24T02:17:45.000Z"
                     *         },
                     *         {
                     *           "device_id": "sbx-001",
                     *           "device_name": "Tesla Model Y Long Range",
                     *           "vehicle_speed": 108.2,
                     *           "battery_voltage": 14.08,
                     *           "lat": 60.34887,
                     *           "lon": 24.84092,
                     *           "status": "driving",
                     *           "alert_level": "warning",
                     *           "weather_temp": -0.3,
                     *           "ignition": 1,
                     *           "updated_at": "2026-11-24T06:00:00.000Z"
                     *         }
                     *       ],
                     *       "count": 2,
                     *       "tenant_id": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["FleetList"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAlerts: {
        parameters: {
            query?: {
                /** @description Most alerts to return, 1–200 (default 50), newest first. */
                limit?: number;
                /** @description Only alerts of this severity: CRITICAL, WARNING or INFO, matched case-insensitively (`info` is INFO). Default: all. */
                severity?: "CRITICAL" | "WARNING" | "INFO";
                /** @description `false`: only alerts no one has acknowledged yet; `true`: only acknowledged ones (case-insensitive). Default: both. */
                acknowledged?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "alt_sbx_0175",
                     *           "device_id": "sbx-035",
                     *           "agent": "driving",
                     *           "severity": "WARNING",
                     *           "prediction": "Speed stayed above 130 km/h for 20 min (up to 144 km/h), over Finland's 120 km/h motorway limit with tolerance: higher crash risk, fuel or energy use and fines; remind the driver of the speed policy.",
                     *           "confidence": 0.9,
                     *           "technical_data": {
                     *             "rule": "overspeed",
                     *             "end_ts": "2026-11-23T06:21:39.000Z",
                     *             "readings": 5,
                     *             "start_ts": "2026-11-23T06:01:39.000Z",
                     *             "max_gap_s": 300,
                     *             "duration_s": 1200,
                     *             "worse_when": "higher",
                     *             "value_field": "max_speed_kmh",
                     *             "max_speed_kmh": 144.4,
                     *             "threshold_kmh": 130,
                     *             "mean_speed_kmh": 142.8,
                     *             "detector_version": "alerts-2027.02",
                     *             "total_sustained_s": 1200,
                     *             "sustained_threshold_s": 60,
                     *             "warning_threshold_kmh": 130,
                     *             "critical_threshold_kmh": 160,
                     *             "highest_general_limit_kmh": 120,
                     *             "runs_over_warning_threshold": 1,
                     *             "occurrences": 4,
                     *             "first_occurrence_at": "2026-11-18T06:11:00.000Z",
                     *             "last_occurrence_at": "2026-11-23T06:06:39.000Z",
                     *             "worst_value": 152.9,
                     *             "latest_value": 144.4
                     *           },
                     *           "acknowledged": false,
                     *           "acknowledged_by": null,
                     *           "acknowledged_at": null,
                     *           "created_at": "2026-11-18T06:11:00.000Z"
                     *         },
                     *         {
                     *           "id": "alt_sbx_0174",
                     *           "device_id": "sbx-037",
                     *           "agent": "diagnostics",
                     *           "severity": "WARNING",
                     *           "prediction": "Fault code U0100 reported — lost communication between control modules: functions that depend on the silent module may stop working and the vehicle may not start; check the module's wiring, connectors and 12 V supply.",
                     *           "confidence": 0.8,
                     *           "technical_data": {
                     *             "rule": "dtc",
                     *             "family": "lost_communication",
                     *             "system": "network",
                     *             "dtc_code": "U0100",
                     *             "definition": "generic",
                     *             "powertrain": "ICE",
                     *             "description": "lost communication between control modules",
                     *             "last_seen_at": "2026-11-15T07:03:58.000Z",
                     *             "first_seen_at": "2026-11-15T07:03:58.000Z",
                     *             "still_present": true,
                     *             "detector_version": "alerts-2027.02",
                     *             "readings_with_code": 1,
                     *             "odometer_km_at_first_seen": 100066.4,
                     *             "occurrences": 1,
                     *             "first_occurrence_at": "2026-11-15T07:03:58.000Z",
                     *             "last_occurrence_at": "2026-11-15T07:03:58.000Z",
                     *             "worst_value": null,
                     *             "latest_value": null
                     *           },
                     *           "acknowledged": true,
                     *           "acknowledged_by": "fleet.manager@sandbox.fdp.example",
                     *           "acknowledged_at": "2026-11-16T08:11:58.000Z",
                     *           "created_at": "2026-11-15T07:03:58.000Z"
                     *         }
                     *       ],
                     *       "count": 2,
                     *       "tenant_id": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["AlertList"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFleetRiskScore: {
        parameters: {
            query?: {
                /** @description Look-back period in days, `<N>d` with N from 1 to 365 (default 30d). */
                period?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "fleet_risk_score": 28,
                     *       "score_version": "fleet-risk-2027.01",
                     *       "confidence": "high",
                     *       "period_days": 30,
                     *       "device_count": 42,
                     *       "alerts_period": 17,
                     *       "critical_alerts_period": 6,
                     *       "severity_distribution": {
                     *         "critical": 6,
                     *         "warning": 9,
                     *         "info": 2
                     *       },
                     *       "scoring_method": "Weighted sum of five risk components on 0-100 measured from telemetry (event_severity 0.40 = severity-weighted harsh events per 100 km, speed_compliance 0.20, weather_exposure 0.15, time_pattern 0.15, ev_charging_risk 0.10); a component without data is reported as 0 and the weights are re-normalised over the components with data. Higher = riskier. See docs/methodology/fleet-risk.md.",
                     *       "components": {
                     *         "event_severity": 21.4,
                     *         "weather_exposure": 40.8,
                     *         "time_pattern": 5.2,
                     *         "speed_compliance": 38.9,
                     *         "ev_charging_risk": 47.2
                     *       },
                     *       "limitations": [
                     *         "Newest telemetry used is 1 min old (2026-11-24T06:00:00.000Z).",
                     *         "event_severity: 0.24 severity-weighted harsh events per 100 km (56 events over 28251.1 km on 11 vehicle(s)); confidence high.",
                     *         "speed_compliance: 3.86 % of 74170.9 km above 130 km/h (0.02 % above 160); 1.57 % of 1405.2 h driving time above 130 km/h (0.01 % above 160); scored on the distance share; confidence high.",
                     *         "weather_exposure: over 1388.3 h of driving with a known temperature, 35 % near freezing (−3…+3 °C), 11.6 % at −10…−3 °C, 0.1 % below −10 °C.",
                     *         "time_pattern: 2.6 % of 1405.2 h driving time between 22:00 and 06:00 (Helsinki).",
                     *         "ev_charging_risk: 1.3 % of the charging energy (from SOC changes, 11212 kWh on 29 vehicle(s)) came from DC above 100 kW; confidence high.",
                     *         "Speeding is judged against one flat threshold (130 km/h = Finland's 120 km/h maximum + 10 km/h tolerance); without a speed-limit map, speeding on slower roads is not seen.",
                     *         "Driving minutes hold a sample's state until the next sample for at most 10 minutes; sparse sampling under-counts short events. Distances come from odometer changes between samples.",
                     *         "The score compares the fleet with fixed reference points chosen by FDP, not with an insurer's claims data; it is not a predicted claim frequency."
                     *       ],
                     *       "generated_at": "2026-11-24T06:01:24.084Z"
                     *     }
                     */
                    "application/json": components["schemas"]["FleetRiskScore"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getVehicleHealthScore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "vehicle_health_score": 96.3,
                     *       "score_version": "vehicle-health-2027.02",
                     *       "confidence": "high",
                     *       "components": {
                     *         "battery": 93.3,
                     *         "diagnostics": 100,
                     *         "electrical_12v": 97.5,
                     *         "odometer_integrity": 100,
                     *         "usage": 92.3
                     *       },
                     *       "available_signals": [
                     *         "soh_pct",
                     *         "dtc_codes",
                     *         "battery_voltage",
                     *         "odometer_km"
                     *       ],
                     *       "missing_signals": [],
                     *       "soh_evidence": {
                     *         "status": "measured",
                     *         "max_age_days": 90,
                     *         "last_reading_pct": 96,
                     *         "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *         "age_days": 0,
                     *         "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *       },
                     *       "limitations": [
                     *         "Newest telemetry used is 1 min old (2026-11-24T06:00:00.000Z).",
                     *         "SoH is the value the OEM's battery management system reports; makers define it differently (capacity- or energy-based).",
                     *         "Usage reflects lifetime distance only; maintenance history and age are not known to FDP."
                     *       ],
                     *       "generated_at": "2026-11-24T06:01:24.186Z"
                     *     }
                     */
                    "application/json": components["schemas"]["VehicleHealthScore"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getGreenFleetScore: {
        parameters: {
            query?: {
                /** @description Look-back period in days, `<N>d` with N from 1 to 365 (default 30d). */
                period?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "green_fleet_score": 60.4,
                     *       "score_version": "green-fleet-2027.01",
                     *       "components": {
                     *         "ev_share": 69,
                     *         "co2_intensity": 51,
                     *         "energy_efficiency": 62
                     *       },
                     *       "limitations": [
                     *         "Newest telemetry used is 1 min old (2026-11-24T06:00:00.000Z).",
                     *         "sbx-011: charging power × time and the SOC change × battery capacity disagree by 39 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-016: charging power × time and the SOC change × battery capacity disagree by 27 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-018: charging power × time and the SOC change × battery capacity disagree by 35 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-019: charging power × time and the SOC change × battery capacity disagree by 34 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-021: charging power × time and the SOC change × battery capacity disagree by 30 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-022: charging power × time and the SOC change × battery capacity disagree by 31 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-025: charging power × time and the SOC change × battery capacity disagree by 59 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "sbx-029: charging power × time and the SOC change × battery capacity disagree by 41 % over short charging intervals; its battery_kwh master data or its SOC readings are in doubt.",
                     *         "EV electricity uses a Finnish grid factor of 88 gCO2e/kWh (life-cycle CO2e (EU 2023/1185 method), Finland 2024) on consumption measured at the plug (SOC changes × usable capacity ÷ charging efficiency). Fuel factors are DEFRA 2025 tank-to-wheel; well-to-tank and vehicle manufacture are excluded.",
                     *         "PHEV emissions use DEFRA's average plug-in hybrid factor; the real electric share of each PHEV is not measured."
                     *       ],
                     *       "generated_at": "2026-11-24T06:01:24.206Z",
                     *       "confidence": "high"
                     *     }
                     */
                    "application/json": components["schemas"]["GreenFleetScore"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getBatteryHealthSnapshot: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "snapshot": {
                     *         "soc_current_pct": 69.7,
                     *         "battery_voltage": 14.08,
                     *         "charging_status": "not_charging",
                     *         "charging_power_kw": 0,
                     *         "estimated_range_km": 227
                     *       },
                     *       "last_battery_alert": null,
                     *       "data_quality": {
                     *         "method_version": "battery-snapshot-2027.02",
                     *         "missing_fields": [],
                     *         "not_applicable_fields": [],
                     *         "latest_telemetry_at": "2026-11-24T06:00:00.000Z",
                     *         "data_age_seconds": 84,
                     *         "freshness": "fresh",
                     *         "soh_pct": 96,
                     *         "soh_source": "oem_bms",
                     *         "soh_reported_at": "2026-11-24T06:00:00.000Z",
                     *         "soh_evidence": {
                     *           "status": "measured",
                     *           "max_age_days": 90,
                     *           "last_reading_pct": 96,
                     *           "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *           "age_days": 0,
                     *           "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *         },
                     *         "powertrain": "BEV",
                     *         "has_traction_battery": true,
                     *         "excluded_readings": [],
                     *         "range_model": {
                     *           "consumption_kwh_per_km": 0.221,
                     *           "temperature_c": -0.3,
                     *           "temperature_assumed": false,
                     *           "cold_penalty_pct": 23,
                     *           "soh_applied": true
                     *         }
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.369Z"
                     *     }
                     */
                    "application/json": components["schemas"]["BatteryHealthSnapshot"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEolSummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "condition_grade": "A",
                     *       "vehicle_health_score": 96.3,
                     *       "confidence": "high",
                     *       "knockout_evidence": [],
                     *       "excluded_readings": [],
                     *       "soh_evidence": {
                     *         "status": "measured",
                     *         "max_age_days": 90,
                     *         "last_reading_pct": 96,
                     *         "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *         "age_days": 0,
                     *         "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *       },
                     *       "limitations": [
                     *         "Grade method eol-2027.02: derived from telemetry and alerts only; no physical inspection (bodywork, interior, tyres) is included."
                     *       ],
                     *       "generated_at": "2026-11-24T06:01:24.380Z"
                     *     }
                     */
                    "application/json": components["schemas"]["EolSummary"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    scoreDevicesBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "device_ids": [
                 *         "sbx-001",
                 *         "sbx-015"
                 *       ],
                 *       "scores": [
                 *         "vehicle_health",
                 *         "eol_summary"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["ScoresBatchRequest"];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "device_id": "sbx-001",
                     *           "vehicle_health": {
                     *             "device_id": "sbx-001",
                     *             "vehicle_health_score": 96.3,
                     *             "score_version": "vehicle-health-2027.02",
                     *             "confidence": "high",
                     *             "components": {
                     *               "battery": 93.3,
                     *               "diagnostics": 100,
                     *               "electrical_12v": 97.5,
                     *               "odometer_integrity": 100,
                     *               "usage": 92.3
                     *             },
                     *             "available_signals": [
                     *               "soh_pct",
                     *               "dtc_codes",
                     *               "battery_voltage",
                     *               "odometer_km"
                     *             ],
                     *             "missing_signals": [],
                     *             "soh_evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 96,
                     *               "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             },
                     *             "limitations": [
                     *               "Newest telemetry used is 1 min old (2026-11-24T06:00:00.000Z).",
                     *               "SoH is the value the OEM's battery management system reports; makers define it differently (capacity- or energy-based).",
                     *               "Usage reflects lifetime distance only; maintenance history and age are not known to FDP."
                     *             ],
                     *             "generated_at": "2026-11-24T06:01:24.409Z"
                     *           },
                     *           "eol_summary": {
                     *             "device_id": "sbx-001",
                     *             "condition_grade": "A",
                     *             "vehicle_health_score": 96.3,
                     *             "confidence": "high",
                     *             "knockout_evidence": [],
                     *             "excluded_readings": [],
                     *             "soh_evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 96,
                     *               "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             },
                     *             "limitations": [
                     *               "Grade method eol-2027.02: derived from telemetry and alerts only; no physical inspection (bodywork, interior, tyres) is included."
                     *             ],
                     *             "generated_at": "2026-11-24T06:01:24.409Z"
                     *           }
                     *         },
                     *         {
                     *           "device_id": "sbx-015",
                     *           "vehicle_health": {
                     *             "device_id": "sbx-015",
                     *             "vehicle_health_score": 89.2,
                     *             "score_version": "vehicle-health-2027.02",
                     *             "confidence": "high",
                     *             "components": {
                     *               "battery": 73.6,
                     *               "diagnostics": 100,
                     *               "electrical_12v": 100,
                     *               "odometer_integrity": 100,
                     *               "usage": 89.6
                     *             },
                     *             "available_signals": [
                     *               "soh_pct",
                     *               "dtc_codes",
                     *               "battery_voltage",
                     *               "odometer_km"
                     *             ],
                     *             "missing_signals": [],
                     *             "soh_evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 84.4,
                     *               "last_reading_at": "2026-11-24T05:27:14.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 84.4 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             },
                     *             "limitations": [
                     *               "Newest telemetry used is 34 min old (2026-11-24T05:27:14.000Z).",
                     *               "SoH is the value the OEM's battery management system reports; makers define it differently (capacity- or energy-based).",
                     *               "Usage reflects lifetime distance only; maintenance history and age are not known to FDP."
                     *             ],
                     *             "generated_at": "2026-11-24T06:01:24.409Z"
                     *           },
                     *           "eol_summary": {
                     *             "device_id": "sbx-015",
                     *             "condition_grade": "B",
                     *             "vehicle_health_score": 89.2,
                     *             "confidence": "high",
                     *             "knockout_evidence": [],
                     *             "excluded_readings": [],
                     *             "soh_evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 84.4,
                     *               "last_reading_at": "2026-11-24T05:27:14.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 84.4 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             },
                     *             "limitations": [
                     *               "Battery state of health 84.4 % is below 85 %; the grade is at most B.",
                     *               "Grade method eol-2027.02: derived from telemetry and alerts only; no physical inspection (bodywork, interior, tyres) is included."
                     *             ],
                     *             "generated_at": "2026-11-24T06:01:24.409Z"
                     *           }
                     *         }
                     *       ],
                     *       "meta": {
                     *         "total": 2,
                     *         "processed": 2,
                     *         "errors": 0,
                     *         "scores_requested": [
                     *           "vehicle_health",
                     *           "eol_summary"
                     *         ]
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.409Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ScoresBatchResponse"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body exceeds 1 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestOemTelemetry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "source": "oem-connect",
                 *       "vehicles": [
                 *         {
                 *           "vin": "YV1XZ16K7P1234567",
                 *           "timestamp": "2026-11-21T08:00:00Z",
                 *           "speed_kmh": 54,
                 *           "soc_percent": 71,
                 *           "odometer_km": 18250.4,
                 *           "lat": 60.17,
                 *           "lon": 24.94,
                 *           "raw_data": {
                 *             "ambient_temp_c": -6,
                 *             "ignition": true,
                 *             "vehicle": {
                 *               "make": "Volvo",
                 *               "model": "EX30",
                 *               "powertrain": "BEV",
                 *               "battery_kwh": 69,
                 *               "lease_start": "2025-03-01",
                 *               "lease_months": 36
                 *             },
                 *             "events": [
                 *               {
                 *                 "kind": "harsh_braking",
                 *                 "ts": "2026-11-21T07:58:12Z",
                 *                 "value": 0.42,
                 *                 "duration_s": 1.5
                 *               }
                 *             ]
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["OemIngestRequest"];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "accepted": true,
                     *       "device_count": 1,
                     *       "tenant_id": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["OemIngestResponse"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key (`unauthorized`), or a signature that does not verify (`invalid_signature`). */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 10000 records or 10 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestTraccarPositions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "position": {
                 *         "deviceId": 17,
                 *         "protocol": "teltonika",
                 *         "serverTime": "2026-11-21T08:00:03.000+00:00",
                 *         "deviceTime": "2026-11-21T08:00:00.000+00:00",
                 *         "fixTime": "2026-11-21T08:00:00.000+00:00",
                 *         "outdated": false,
                 *         "valid": true,
                 *         "latitude": 60.1699,
                 *         "longitude": 24.9384,
                 *         "speed": 27,
                 *         "course": 181,
                 *         "attributes": {
                 *           "ignition": true,
                 *           "motion": true,
                 *           "power": 13.9,
                 *           "odometer": 18250400,
                 *           "hours": 4320000000,
                 *           "fuel": 31.5,
                 *           "batteryLevel": 100
                 *         }
                 *       },
                 *       "device": {
                 *         "id": 17,
                 *         "name": "Van 12 (ABC-123)",
                 *         "uniqueId": "356307042441013",
                 *         "model": "Transit Custom",
                 *         "category": "van"
                 *       }
                 *     }
                 */
                "application/json": ({
                    position: {
                        /**
                         * Format: date-time
                         * @description The record's time (else `deviceTime`; one of them is required).
                         */
                        fixTime?: string;
                        /**
                         * Format: date-time
                         * @description The record's time when `fixTime` is absent or the position is `outdated`.
                         */
                        deviceTime?: string;
                        /** @description False: no GPS fix; position and speed are then not reported. */
                        valid?: boolean;
                        /** @description True: the last known position repeated; position and speed are then not reported. */
                        outdated?: boolean;
                        latitude?: number;
                        longitude?: number;
                        /** @description Knots (× 1.852 = km/h). */
                        speed?: number;
                        /** @description Read: `odometer` (else `totalDistance`, metres), `power` (V), `hours` (ms), `ignition`, `dtcs`, `vin`. Every attribute is kept in `raw_data.traccar`. */
                        attributes?: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    device: {
                        /** @description The device id is `traccar-<uniqueId>`. */
                        uniqueId: string | number;
                        /** @description Master data: the vehicle's model. */
                        model?: string | null;
                        /** @description Master data: `car`, `van`, `pickup`, `truck`, … (docs/feeds.md). */
                        category?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                }) | ({
                    position: {
                        /**
                         * Format: date-time
                         * @description The record's time (else `deviceTime`; one of them is required).
                         */
                        fixTime?: string;
                        /**
                         * Format: date-time
                         * @description The record's time when `fixTime` is absent or the position is `outdated`.
                         */
                        deviceTime?: string;
                        /** @description False: no GPS fix; position and speed are then not reported. */
                        valid?: boolean;
                        /** @description True: the last known position repeated; position and speed are then not reported. */
                        outdated?: boolean;
                        latitude?: number;
                        longitude?: number;
                        /** @description Knots (× 1.852 = km/h). */
                        speed?: number;
                        /** @description Read: `odometer` (else `totalDistance`, metres), `power` (V), `hours` (ms), `ignition`, `dtcs`, `vin`. Every attribute is kept in `raw_data.traccar`. */
                        attributes?: {
                            [key: string]: unknown;
                        };
                    } & {
                        [key: string]: unknown;
                    };
                    device: {
                        /** @description The device id is `traccar-<uniqueId>`. */
                        uniqueId: string | number;
                        /** @description Master data: the vehicle's model. */
                        model?: string | null;
                        /** @description Master data: `car`, `van`, `pickup`, `truck`, … (docs/feeds.md). */
                        category?: string | null;
                    } & {
                        [key: string]: unknown;
                    };
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "accepted": true,
                     *       "device_count": 1,
                     *       "tenant_id": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["OemIngestResponse"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key (`unauthorized`), or a signature that does not verify (`invalid_signature`). */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 10000 documents or 10 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    ingestTeslaTelemetry: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "data": [
                 *         {
                 *           "key": "VehicleSpeed",
                 *           "value": {
                 *             "stringValue": "40.0"
                 *           }
                 *         },
                 *         {
                 *           "key": "Odometer",
                 *           "value": {
                 *             "stringValue": "11340.25"
                 *           }
                 *         },
                 *         {
                 *           "key": "Soc",
                 *           "value": {
                 *             "stringValue": "71.3"
                 *           }
                 *         },
                 *         {
                 *           "key": "Location",
                 *           "value": {
                 *             "locationValue": {
                 *               "latitude": 59.3293,
                 *               "longitude": 18.0686
                 *             }
                 *           }
                 *         },
                 *         {
                 *           "key": "DetailedChargeState",
                 *           "value": {
                 *             "detailedChargeStateValue": "DetailedChargeStateDisconnected"
                 *           }
                 *         },
                 *         {
                 *           "key": "CarType",
                 *           "value": {
                 *             "carTypeValue": "CarTypeModel3"
                 *           }
                 *         }
                 *       ],
                 *       "createdAt": "2026-11-21T08:00:00.123Z",
                 *       "vin": "5YJ3E7EB2KF123456"
                 *     }
                 */
                "application/json": ({
                    /** @description The device id is `oem-<vin>`. */
                    vin: string;
                    /**
                     * Format: date-time
                     * @description The record's time, required (or under the proto name `created_at`).
                     */
                    createdAt?: string;
                    isResend?: boolean;
                    data: {
                        /** @description A `Field` of vehicle_data.proto. Read: VehicleSpeed (mph), Odometer (miles), Soc (else BatteryLevel), Location, DetailedChargeState (else ChargeState), DCChargingPower, ACChargingPower, OutsideTemp, CarType. Every key is kept in `raw_data.tesla`. */
                        key: string;
                        /** @description One member of `Value`: stringValue, doubleValue, floatValue, intValue, longValue, booleanValue, locationValue {latitude, longitude}, chargingValue, detailedChargeStateValue, carTypeValue, …, or `invalid: true` (not reported). Numbers sent as strings are read as numbers. */
                        value: {
                            [key: string]: unknown;
                        };
                    }[];
                } & {
                    [key: string]: unknown;
                }) | ({
                    /** @description The device id is `oem-<vin>`. */
                    vin: string;
                    /**
                     * Format: date-time
                     * @description The record's time, required (or under the proto name `created_at`).
                     */
                    createdAt?: string;
                    isResend?: boolean;
                    data: {
                        /** @description A `Field` of vehicle_data.proto. Read: VehicleSpeed (mph), Odometer (miles), Soc (else BatteryLevel), Location, DetailedChargeState (else ChargeState), DCChargingPower, ACChargingPower, OutsideTemp, CarType. Every key is kept in `raw_data.tesla`. */
                        key: string;
                        /** @description One member of `Value`: stringValue, doubleValue, floatValue, intValue, longValue, booleanValue, locationValue {latitude, longitude}, chargingValue, detailedChargeStateValue, carTypeValue, …, or `invalid: true` (not reported). Numbers sent as strings are read as numbers. */
                        value: {
                            [key: string]: unknown;
                        };
                    }[];
                } & {
                    [key: string]: unknown;
                })[];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "accepted": true,
                     *       "device_count": 1,
                     *       "tenant_id": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["OemIngestResponse"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key (`unauthorized`), or a signature that does not verify (`invalid_signature`). */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description More than 10000 documents or 10 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTotalAssetScore: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "tas_grade": "C",
                     *       "tas_score": 60.3,
                     *       "score_version": "tas-2027.01",
                     *       "confidence": "high",
                     *       "pillars": {
                     *         "battery_health": {
                     *           "score": 82.3,
                     *           "source": "oem_bms"
                     *         },
                     *         "usage_behaviour": {
                     *           "score": 0,
                     *           "source": "telemetry_derived"
                     *         },
                     *         "contractual_market_risk": {
                     *           "score": 46.1,
                     *           "source": "telemetry_and_master_data"
                     *         },
                     *         "regulatory_compliance": {
                     *           "score": 100,
                     *           "source": "telemetry_derived"
                     *         }
                     *       },
                     *       "knockout_flags": [],
                     *       "vertical": "passenger_car",
                     *       "fuel_type": "electric",
                     *       "data_quality": {
                     *         "latest_telemetry_at": "2026-11-24T06:00:00.000Z",
                     *         "data_age_seconds": 84,
                     *         "coverage_pct": 100,
                     *         "freshness": "Newest telemetry used is 1 min old (2026-11-24T06:00:00.000Z).",
                     *         "knockout_evidence": [],
                     *         "excluded_readings": [],
                     *         "dismissed_evidence": []
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.463Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TotalAssetScore"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getTotalAssetScoreBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "device_ids": [
                 *         "sbx-001",
                 *         "sbx-015",
                 *         "sbx-999"
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["TasBatchRequest"];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "results": [
                     *         {
                     *           "device_id": "sbx-001",
                     *           "tas_grade": "C",
                     *           "tas_score": 60.3,
                     *           "confidence": "high",
                     *           "error": null
                     *         },
                     *         {
                     *           "device_id": "sbx-015",
                     *           "tas_grade": "B",
                     *           "tas_score": 75.8,
                     *           "confidence": "high",
                     *           "error": null
                     *         },
                     *         {
                     *           "device_id": "sbx-999",
                     *           "tas_grade": null,
                     *           "tas_score": null,
                     *           "confidence": null,
                     *           "error": "No device sbx-999."
                     *         }
                     *       ],
                     *       "meta": {
                     *         "total": 3,
                     *         "scored": 2,
                     *         "errors": 1,
                     *         "score_version": "tas-2027.01"
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.506Z"
                     *     }
                     */
                    "application/json": components["schemas"]["TasBatchResponse"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body exceeds 1 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getResidualValue: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "estimation_method": "rv-rules-2027.02",
                     *       "estimated_residual_pct": 59.4,
                     *       "estimated_residual_eur": 32034,
                     *       "confidence": "high",
                     *       "factors": {
                     *         "age_months": 14,
                     *         "mileage_km": 51319,
                     *         "battery_soh_pct": 96,
                     *         "vehicle_health_score": 96.3,
                     *         "fleet_risk_score": 33.9,
                     *         "green_fleet_score": 76.7,
                     *         "eol_grade": "A"
                     *       },
                     *       "depreciation_curve": {
                     *         "method": "front-loaded-age-curve-bev-c-segment-2027.01",
                     *         "annual_rate_pct": 19,
                     *         "battery_penalty_pct": 0.66,
                     *         "mileage_penalty_pct": 13.53
                     *       },
                     *       "adjustments": {
                     *         "vehicle_health_pct": 1,
                     *         "fleet_risk_pct": 0.81,
                     *         "green_fleet_pct": 0.53,
                     *         "total_pct": 2.34,
                     *         "knockout_penalty_pct": 0
                     *       },
                     *       "knockouts": [],
                     *       "data_quality": {
                     *         "completeness_pct": 100,
                     *         "missing_fields": [],
                     *         "age_basis": "lease_start",
                     *         "battery_soh_status": "measured",
                     *         "notes": []
                     *       },
                     *       "disclaimer": "Indicative estimate by the rule-based method rv-rules-2027.02, from telemetry, FDP's scores and the vehicle's master data: not a valuation, an appraisal or an offer to buy. It does not see the vehicle's physical condition (bodywork, interior, tyres), accident damage, equipment and options, service history, or the local used-car market and its current prices. The depreciation curve is a market average calibrated on published figures for C-segment battery-electric cars in Germany, not on this make and model.",
                     *       "generated_at": "2026-11-24T06:01:24.556Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ResidualValue"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    predictResidualValue: {
        parameters: {
            query?: {
                /** @description Vehicle make; default: the device's master data. Reported, not used by the model. */
                make?: string;
                /** @description Vehicle model; default: the device's master data. Reported, not used by the model. */
                model?: string;
                /** @description Model year; gives the age (from 1 July of that year) when `age_months` is not given. */
                year?: number;
                /** @description BEV or PHEV. Default: the device's master data when it is BEV or PHEV, else BEV (SPEC 4.4); `inputs` says which. */
                powertrain?: "BEV" | "PHEV";
                /** @description Vehicle age in months; default: from `year`, else the lease start, else the model year. */
                age_months?: number;
                /** @description Current odometer, km; default: the device's latest odometer reading. */
                odometer_km?: number;
                /** @description Battery state of health, 0–100; default: the device's latest plausible SoH reading. */
                battery_soh_pct?: number;
                /** @description Battery capacity, kWh; default: master data. Reported, not used by the model. */
                battery_kwh?: number;
                /** @description Original price in EUR; default: master data. Without one, `estimated_residual_eur` is null. */
                original_price_eur?: number;
                /** @description WLTP electric range, km. Reported, not used by the model. */
                electric_range_km?: number;
                /** @description Motor power, kW. Reported, not used by the model. */
                power_kw?: number;
                /** @description Curb mass, kg. Reported, not used by the model. */
                mass_kg?: number;
            };
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "estimated_residual_pct": 49.9,
                     *       "estimated_residual_eur": 23945,
                     *       "original_price_eur": 48000,
                     *       "confidence": "low",
                     *       "data_quality": "high",
                     *       "model_version": "rv-2027.02",
                     *       "factors": [
                     *         {
                     *           "feature": "age_months",
                     *           "direction": "positive"
                     *         },
                     *         {
                     *           "feature": "odometer_km",
                     *           "direction": "negative"
                     *         },
                     *         {
                     *           "feature": "battery_soh_pct",
                     *           "direction": "negative"
                     *         }
                     *       ],
                     *       "generated_at": "2026-11-24T06:01:24.605Z",
                     *       "price_basis": "trade_de",
                     *       "estimate_source": "model",
                     *       "rule_based_pct": 57.1,
                     *       "confidence_reasons": [
                     *         "low: outside the calibration range (odometer_km): the estimate extrapolates the rule-based curve with no published figure behind it, and the interval may not cover the value.",
                     *         "medium: the 80 % interval is ±30 % of the estimate: published figures for cars of the same age differ by up to 20 points between models and markets."
                     *       ],
                     *       "validation": {
                     *         "scheme": "leave-one-out",
                     *         "published_rows": 22,
                     *         "model_mae_pp": 6.5,
                     *         "rule_based_mae_pp": 10.3,
                     *         "rule_based_on_row_basis_mae_pp": 7.4,
                     *         "model_beats_rule_based": true
                     *       },
                     *       "prediction_interval": {
                     *         "level": 0.8,
                     *         "low_pct": 37.2,
                     *         "high_pct": 66.8,
                     *         "method": "jackknife (leave-one-out errors)"
                     *       },
                     *       "inputs": {
                     *         "make": {
                     *           "status": "derived",
                     *           "value": "Tesla",
                     *           "source": "master_data.make",
                     *           "used_by_model": false
                     *         },
                     *         "model": {
                     *           "status": "derived",
                     *           "value": "Model Y Long Range",
                     *           "source": "master_data.model",
                     *           "used_by_model": false
                     *         },
                     *         "year": {
                     *           "status": "derived",
                     *           "value": 2025,
                     *           "source": "master_data.year",
                     *           "used_by_model": false
                     *         },
                     *         "powertrain": {
                     *           "status": "derived",
                     *           "value": "BEV",
                     *           "source": "master_data.powertrain",
                     *           "used_by_model": true
                     *         },
                     *         "age_months": {
                     *           "status": "derived",
                     *           "value": 14,
                     *           "source": "master_data.lease_start",
                     *           "used_by_model": true
                     *         },
                     *         "odometer_km": {
                     *           "status": "derived",
                     *           "value": 51319.3,
                     *           "source": "telemetry.latest_odometer",
                     *           "used_by_model": true
                     *         },
                     *         "battery_soh_pct": {
                     *           "status": "supplied",
                     *           "value": 92.5,
                     *           "source": "query",
                     *           "used_by_model": true
                     *         },
                     *         "battery_kwh": {
                     *           "status": "derived",
                     *           "value": 75,
                     *           "source": "master_data.battery_kwh",
                     *           "used_by_model": false
                     *         },
                     *         "original_price_eur": {
                     *           "status": "supplied",
                     *           "value": 48000,
                     *           "source": "query",
                     *           "used_by_model": false
                     *         },
                     *         "electric_range_km": {
                     *           "status": "missing",
                     *           "value": null,
                     *           "source": "none",
                     *           "used_by_model": false
                     *         },
                     *         "power_kw": {
                     *           "status": "missing",
                     *           "value": null,
                     *           "source": "none",
                     *           "used_by_model": false
                     *         },
                     *         "mass_kg": {
                     *           "status": "missing",
                     *           "value": null,
                     *           "source": "none",
                     *           "used_by_model": false
                     *         }
                     *       },
                     *       "limitations": [
                     *         "Outside the calibration range (odometer_km): the estimate extrapolates the model and its confidence is low."
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["ResidualValuePrediction"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    predictMileage: {
        parameters: {
            query?: {
                /** @description Contract mileage limit (km, compared with the odometer at the lease end); wins over the device's master data `contract_km`. */
                contract_km?: number;
                /** @description Total lease duration in months, counted from the device's `lease_start` (else its first odometer day); wins over the master data `lease_months`. */
                lease_months?: number;
            };
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "current_km": 51319.3,
                     *       "predicted_end_km": 140311,
                     *       "contract_km": 100000,
                     *       "overage_km": 40311,
                     *       "risk_score": 99.8,
                     *       "confidence_interval": {
                     *         "lower": 122071.5,
                     *         "upper": 158550.5
                     *       },
                     *       "forecast_method": "mileage-trend-2027.02",
                     *       "data_quality": "high",
                     *       "generated_at": "2026-11-24T06:01:24.615Z",
                     *       "interval_level_pct": 80,
                     *       "risk_basis": "contract_km",
                     *       "current_km_at": "2026-11-24T06:00:00.000Z",
                     *       "odometer_reading_km": 51319.3,
                     *       "rolled_back_km": 0,
                     *       "distance_method": "odometer",
                     *       "forecast_basis": "history",
                     *       "daily_rate_km": 136.7,
                     *       "history_days": 95,
                     *       "reading_days": 96,
                     *       "horizon_days": 651,
                     *       "forecast_end": "2028-09-05",
                     *       "forecast_end_basis": "lease_end",
                     *       "contract": {
                     *         "contract_km_source": "query",
                     *         "lease_months": 36,
                     *         "lease_months_source": "query",
                     *         "lease_start": "2025-09-06",
                     *         "lease_start_source": "master_data",
                     *         "lease_end": "2028-09-05"
                     *       },
                     *       "limitations": [
                     *         "The history covers less than a year, so not every season: the model does not adjust for Finnish seasonality, it widens the interval for the unseen part of the year."
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["MileageForecast"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The device has reported no plausible odometer reading yet (`unprocessable`). */
            422: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generateCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "certificate_number": "FDP-CERT-20261124-RRJ4J",
                     *       "device_id": "sbx-001",
                     *       "grade": "A",
                     *       "vehicle_health_score": 96.3,
                     *       "residual_value_pct": 59.4,
                     *       "data_snapshot": {
                     *         "format": "fdp-certificate-2027.02",
                     *         "vehicle": {
                     *           "name": "Tesla Model Y Long Range",
                     *           "vin": "XP7U6XAC5SZ477311",
                     *           "make": "Tesla",
                     *           "model": "Model Y Long Range",
                     *           "model_year": 2025,
                     *           "powertrain": "BEV",
                     *           "asset_class": "passenger_car"
                     *         },
                     *         "odometer": {
                     *           "odometer_km": 51319.3,
                     *           "read_at": "2026-11-24T06:00:00.000Z",
                     *           "manipulation_found": false
                     *         },
                     *         "condition": {
                     *           "grade": "A",
                     *           "confidence": "high",
                     *           "knockouts": []
                     *         },
                     *         "vehicle_health": {
                     *           "score": 96.3,
                     *           "confidence": "high",
                     *           "components": {
                     *             "battery": 93.3,
                     *             "diagnostics": 100,
                     *             "electrical_12v": 97.5,
                     *             "odometer_integrity": 100,
                     *             "usage": 92.3
                     *           }
                     *         },
                     *         "battery": {
                     *           "has_traction_battery": true,
                     *           "state_of_health": {
                     *             "value_pct": 96,
                     *             "measured_by": "oem_bms_readout",
                     *             "definition": "State of health as the vehicle's battery management system reports it through the OEM's telematics: the OEM's own definition (usually usable capacity relative to new), not normalised by FDP. It is not the EU Battery Passport's stateOfCertifiedEnergy (UN GTR No. 22 SOCE), which is measured against the certified energy.",
                     *             "measured_at": "2026-11-24T06:00:00.000Z",
                     *             "uncertainty_pct": null,
                     *             "battery_passport_attribute": null,
                     *             "readings_set_aside": 0,
                     *             "evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 96,
                     *               "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             }
                     *           },
                     *           "stateOfCharge": {
                     *             "value_pct": 69.7,
                     *             "measured_by": "oem_bms_readout",
                     *             "measured_at": "2026-11-24T06:00:00.000Z"
                     *           },
                     *           "ratedEnergy": {
                     *             "value_kwh": 75,
                     *             "measured_by": "master_data"
                     *           }
                     *         },
                     *         "residual_value": {
                     *           "estimated_residual_pct": 59.4,
                     *           "confidence": "high",
                     *           "age_months": 14,
                     *           "mileage_km": 51319
                     *         },
                     *         "data_as_of": "2026-11-24T06:00:00.000Z",
                     *         "methods": {
                     *           "condition_grade": "eol-2027.02",
                     *           "vehicle_health": "vehicle-health-2027.02",
                     *           "battery_snapshot": "battery-snapshot-2027.02",
                     *           "residual_value": "rv-rules-2027.02",
                     *           "certificate": "fdp-certificate-2027.02"
                     *         }
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.000Z",
                     *       "expires_at": "2027-05-23T06:01:24.000Z",
                     *       "confidence": "high",
                     *       "verify_url": "http://localhost:3000/verify/FDP-CERT-20261124-RRJ4J",
                     *       "verify_hash": "932718945cefb82a87be8cd4455f0da45acbe91da762e68405b94c1c665cec75",
                     *       "pdf_base64": "JVBERi0xLjMKJf////8KOSAwIG9iago8PAovVHlwZSAvRXh0R1N0YXRlCi9jYSAx…",
                     *       "signature": {
                     *         "alg": "EdDSA",
                     *         "kid": "xLHsWiE0ZNAWkAadFExlmOBCoCtk8xcLGE7YV8YbrE8",
                     *         "value": "5XUwgsZqdD94PmeiO2L-v9XlpYU3Ykdjv8Y-3g_gFoIJJPwms3R_NFU1m4f2Jh4tE-QM9GFxau8FRcBGKOeLDg",
                     *         "keys_url": "http://localhost:3000/.well-known/fdp-certificate-keys.json"
                     *       },
                     *       "key_id": "xLHsWiE0ZNAWkAadFExlmOBCoCtk8xcLGE7YV8YbrE8",
                     *       "jws": "eyJhbGciOiJFZERTQSIsImtpZCI6InhMSHNXaUUwWk5BV2tBYWRGRXhsbU9CQ29DdGs4eGNMR0U3WVY4WWJyRTgifQ..5XUwgsZqdD94PmeiO2L-v9XlpYU3Ykdjv8Y-3g_gFoIJJPwms3R_NFU1m4f2Jh4tE-QM9GFxau8FRcBGKOeLDg"
                     *     }
                     */
                    "application/json": components["schemas"]["GeneratedCertificate"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The certificate number, `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>`. */
                certificate_number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "certificate_number": "FDP-CERT-20261124-RRJ4J",
                     *       "device_id": "sbx-001",
                     *       "grade": "A",
                     *       "vehicle_health_score": 96.3,
                     *       "residual_value_pct": 59.4,
                     *       "data_snapshot": {
                     *         "format": "fdp-certificate-2027.02",
                     *         "vehicle": {
                     *           "name": "Tesla Model Y Long Range",
                     *           "vin": "XP7U6XAC5SZ477311",
                     *           "make": "Tesla",
                     *           "model": "Model Y Long Range",
                     *           "model_year": 2025,
                     *           "powertrain": "BEV",
                     *           "asset_class": "passenger_car"
                     *         },
                     *         "odometer": {
                     *           "odometer_km": 51319.3,
                     *           "read_at": "2026-11-24T06:00:00.000Z",
                     *           "manipulation_found": false
                     *         },
                     *         "condition": {
                     *           "grade": "A",
                     *           "confidence": "high",
                     *           "knockouts": []
                     *         },
                     *         "vehicle_health": {
                     *           "score": 96.3,
                     *           "confidence": "high",
                     *           "components": {
                     *             "battery": 93.3,
                     *             "diagnostics": 100,
                     *             "electrical_12v": 97.5,
                     *             "odometer_integrity": 100,
                     *             "usage": 92.3
                     *           }
                     *         },
                     *         "battery": {
                     *           "has_traction_battery": true,
                     *           "state_of_health": {
                     *             "value_pct": 96,
                     *             "measured_by": "oem_bms_readout",
                     *             "definition": "State of health as the vehicle's battery management system reports it through the OEM's telematics: the OEM's own definition (usually usable capacity relative to new), not normalised by FDP. It is not the EU Battery Passport's stateOfCertifiedEnergy (UN GTR No. 22 SOCE), which is measured against the certified energy.",
                     *             "measured_at": "2026-11-24T06:00:00.000Z",
                     *             "uncertainty_pct": null,
                     *             "battery_passport_attribute": null,
                     *             "readings_set_aside": 0,
                     *             "evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 96,
                     *               "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             }
                     *           },
                     *           "stateOfCharge": {
                     *             "value_pct": 69.7,
                     *             "measured_by": "oem_bms_readout",
                     *             "measured_at": "2026-11-24T06:00:00.000Z"
                     *           },
                     *           "ratedEnergy": {
                     *             "value_kwh": 75,
                     *             "measured_by": "master_data"
                     *           }
                     *         },
                     *         "residual_value": {
                     *           "estimated_residual_pct": 59.4,
                     *           "confidence": "high",
                     *           "age_months": 14,
                     *           "mileage_km": 51319
                     *         },
                     *         "data_as_of": "2026-11-24T06:00:00.000Z",
                     *         "methods": {
                     *           "battery_snapshot": "battery-snapshot-2027.02",
                     *           "certificate": "fdp-certificate-2027.02",
                     *           "condition_grade": "eol-2027.02",
                     *           "residual_value": "rv-rules-2027.02",
                     *           "vehicle_health": "vehicle-health-2027.02"
                     *         }
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.000Z",
                     *       "expires_at": "2027-05-23T06:01:24.000Z",
                     *       "verify_hash": "932718945cefb82a87be8cd4455f0da45acbe91da762e68405b94c1c665cec75",
                     *       "is_expired": false,
                     *       "revoked_at": null,
                     *       "revocation_reason": null,
                     *       "signature": {
                     *         "alg": "EdDSA",
                     *         "kid": "xLHsWiE0ZNAWkAadFExlmOBCoCtk8xcLGE7YV8YbrE8",
                     *         "value": "5XUwgsZqdD94PmeiO2L-v9XlpYU3Ykdjv8Y-3g_gFoIJJPwms3R_NFU1m4f2Jh4tE-QM9GFxau8FRcBGKOeLDg",
                     *         "keys_url": "http://localhost:3000/.well-known/fdp-certificate-keys.json"
                     *       },
                     *       "key_id": "xLHsWiE0ZNAWkAadFExlmOBCoCtk8xcLGE7YV8YbrE8",
                     *       "jws": "eyJhbGciOiJFZERTQSIsImtpZCI6InhMSHNXaUUwWk5BV2tBYWRGRXhsbU9CQ29DdGs4eGNMR0U3WVY4WWJyRTgifQ..5XUwgsZqdD94PmeiO2L-v9XlpYU3Ykdjv8Y-3g_gFoIJJPwms3R_NFU1m4f2Jh4tE-QM9GFxau8FRcBGKOeLDg"
                     *     }
                     */
                    "application/json": components["schemas"]["RetrievedCertificate"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown certificate number, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCertificatePdf: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The certificate number, `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>`. */
                certificate_number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown certificate number, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyCertificate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The certificate number, `FDP-CERT-<yyyymmdd>-<5 of [A-Z0-9]>`. */
                certificate_number: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "certificate_number": "FDP-CERT-20261124-RRJ4J",
                     *       "device_id": "sbx-001",
                     *       "grade": "A",
                     *       "vehicle_health_score": 96.3,
                     *       "residual_value_pct": 59.4,
                     *       "data_snapshot": {
                     *         "format": "fdp-certificate-2027.02",
                     *         "vehicle": {
                     *           "name": "Tesla Model Y Long Range",
                     *           "vin": "XP7U6XAC5SZ477311",
                     *           "make": "Tesla",
                     *           "model": "Model Y Long Range",
                     *           "model_year": 2025,
                     *           "powertrain": "BEV",
                     *           "asset_class": "passenger_car"
                     *         },
                     *         "odometer": {
                     *           "odometer_km": 51319.3,
                     *           "read_at": "2026-11-24T06:00:00.000Z",
                     *           "manipulation_found": false
                     *         },
                     *         "condition": {
                     *           "grade": "A",
                     *           "confidence": "high",
                     *           "knockouts": []
                     *         },
                     *         "vehicle_health": {
                     *           "score": 96.3,
                     *           "confidence": "high",
                     *           "components": {
                     *             "battery": 93.3,
                     *             "diagnostics": 100,
                     *             "electrical_12v": 97.5,
                     *             "odometer_integrity": 100,
                     *             "usage": 92.3
                     *           }
                     *         },
                     *         "battery": {
                     *           "has_traction_battery": true,
                     *           "state_of_health": {
                     *             "value_pct": 96,
                     *             "measured_by": "oem_bms_readout",
                     *             "definition": "State of health as the vehicle's battery management system reports it through the OEM's telematics: the OEM's own definition (usually usable capacity relative to new), not normalised by FDP. It is not the EU Battery Passport's stateOfCertifiedEnergy (UN GTR No. 22 SOCE), which is measured against the certified energy.",
                     *             "measured_at": "2026-11-24T06:00:00.000Z",
                     *             "uncertainty_pct": null,
                     *             "battery_passport_attribute": null,
                     *             "readings_set_aside": 0,
                     *             "evidence": {
                     *               "status": "measured",
                     *               "max_age_days": 90,
                     *               "last_reading_pct": 96,
                     *               "last_reading_at": "2026-11-24T06:00:00.000Z",
                     *               "age_days": 0,
                     *               "statement": "State of health 96 % read by the vehicle's battery management system on 2026-11-24, 0 days before 2026-11-24 (a reading at most 90 days old counts as measured)."
                     *             }
                     *           },
                     *           "stateOfCharge": {
                     *             "value_pct": 69.7,
                     *             "measured_by": "oem_bms_readout",
                     *             "measured_at": "2026-11-24T06:00:00.000Z"
                     *           },
                     *           "ratedEnergy": {
                     *             "value_kwh": 75,
                     *             "measured_by": "master_data"
                     *           }
                     *         },
                     *         "residual_value": {
                     *           "estimated_residual_pct": 59.4,
                     *           "confidence": "high",
                     *           "age_months": 14,
                     *           "mileage_km": 51319
                     *         },
                     *         "data_as_of": "2026-11-24T06:00:00.000Z",
                     *         "methods": {
                     *           "battery_snapshot": "battery-snapshot-2027.02",
                     *           "certificate": "fdp-certificate-2027.02",
                     *           "condition_grade": "eol-2027.02",
                     *           "residual_value": "rv-rules-2027.02",
                     *           "vehicle_health": "vehicle-health-2027.02"
                     *         }
                     *       },
                     *       "generated_at": "2026-11-24T06:01:24.000Z",
                     *       "expires_at": "2027-05-23T06:01:24.000Z",
                     *       "status": "valid",
                     *       "verify_hash": "932718945cefb82a87be8cd4455f0da45acbe91da762e68405b94c1c665cec75",
                     *       "revoked_at": null,
                     *       "revocation_reason": null,
                     *       "status_reason": null,
                     *       "signature": {
                     *         "alg": "EdDSA",
                     *         "kid": "xLHsWiE0ZNAWkAadFExlmOBCoCtk8xcLGE7YV8YbrE8",
                     *         "value": "5XUwgsZqdD94PmeiO2L-v9XlpYU3Ykdjv8Y-3g_gFoIJJPwms3R_NFU1m4f2Jh4tE-QM9GFxau8FRcBGKOeLDg",
                     *         "keys_url": "http://localhost:3000/.well-known/fdp-certificate-keys.json"
                     *       },
                     *       "key_id": "xLHsWiE0ZNAWkAadFExlmOBCoCtk8xcLGE7YV8YbrE8",
                     *       "jws": "eyJhbGciOiJFZERTQSIsImtpZCI6InhMSHNXaUUwWk5BV2tBYWRGRXhsbU9CQ29DdGs4eGNMR0U3WVY4WWJyRTgifQ..5XUwgsZqdD94PmeiO2L-v9XlpYU3Ykdjv8Y-3g_gFoIJJPwms3R_NFU1m4f2Jh4tE-QM9GFxau8FRcBGKOeLDg",
                     *       "pdf_sha256": "96bb94b2f52249df6e9e0e8616efda2dae0053d7dd8b4ac284fc822590d4f33b"
                     *     }
                     */
                    "application/json": components["schemas"]["CertificateVerification"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No certificate has this number. */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    priceSecurityInvestment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "vulnerability": 0.5,
                 *       "potential_loss_eur": 1000000,
                 *       "breach_function": {
                 *         "class": "I",
                 *         "alpha": 0.00001,
                 *         "beta": 1
                 *       },
                 *       "proposed_investment_eur": 100000
                 *     }
                 */
                "application/json": components["schemas"]["GordonLoebRequest"];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "method": "gordon-loeb-2027.01",
                     *       "inputs": {
                     *         "vulnerability": 0.5,
                     *         "potential_loss_eur": 1000000,
                     *         "breach_function": {
                     *           "class": "I",
                     *           "alpha": 0.00001,
                     *           "beta": 1
                     *         },
                     *         "proposed_investment_eur": 100000
                     *       },
                     *       "expected_loss_eur": 500000,
                     *       "max_optimal_investment_eur": 183939.72,
                     *       "optimum": {
                     *         "investment_eur": 123606.8,
                     *         "vulnerability_after": 0.223607,
                     *         "loss_reduction_eur": 276393.2,
                     *         "enbis_eur": 152786.4,
                     *         "share_of_expected_loss": 0.247214
                     *       },
                     *       "proposed": {
                     *         "investment_eur": 100000,
                     *         "within_bound": true,
                     *         "vulnerability_after": 0.25,
                     *         "loss_reduction_eur": 250000,
                     *         "enbis_eur": 150000,
                     *         "roi": 1.5
                     *       },
                     *       "interpretation": "Expected loss without further investment: EUR 500,000.00 (v·L). Gordon–Loeb bound: the optimal security investment is below EUR 183,939.72, 1/e ≈ 36.8 % of the expected loss. With class I (α = 0.00001, β = 1) the optimum is EUR 123,606.80 (24.7 % of the expected loss), lowering the breach probability from 0.5 to 0.223607 for a net benefit of EUR 152,786.40. The proposed EUR 100,000.00 pays for itself: net benefit EUR 150,000.00, ROI 150 %.",
                     *       "sources": [
                     *         "L. A. Gordon and M. P. Loeb (2002), \"The economics of information security investment\", ACM Transactions on Information and System Security 5(4), 438–457, doi:10.1145/581271.581274"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["GordonLoebResult"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body exceeds 1 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    priceCarriedInterest: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "contributed_capital_eur": 100000000,
                 *       "total_distributions_eur": 180000000,
                 *       "preferred_return_pct": 8,
                 *       "holding_period_years": 5,
                 *       "compounding": "annual",
                 *       "carry_pct": 20,
                 *       "catch_up_pct": 100
                 *     }
                 */
                "application/json": components["schemas"]["CommissionRequest"];
            };
        };
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "method": "carry-waterfall-2027.01",
                     *       "inputs": {
                     *         "contributed_capital_eur": 100000000,
                     *         "committed_capital_eur": null,
                     *         "total_distributions_eur": 180000000,
                     *         "preferred_return_pct": 8,
                     *         "holding_period_years": 5,
                     *         "compounding": "annual",
                     *         "carry_pct": 20,
                     *         "catch_up_pct": 100,
                     *         "gp_commitment_pct": 0
                     *       },
                     *       "lp_capital_eur": 100000000,
                     *       "lp_distributions_eur": 180000000,
                     *       "profit_eur": 80000000,
                     *       "preferred_return_due_eur": 46932807.68,
                     *       "tiers": [
                     *         {
                     *           "tier": "return_of_capital",
                     *           "total_eur": 100000000,
                     *           "to_lps_eur": 100000000,
                     *           "to_gp_eur": 0
                     *         },
                     *         {
                     *           "tier": "preferred_return",
                     *           "total_eur": 46932807.68,
                     *           "to_lps_eur": 46932807.68,
                     *           "to_gp_eur": 0
                     *         },
                     *         {
                     *           "tier": "gp_catch_up",
                     *           "total_eur": 11733201.92,
                     *           "to_lps_eur": 0,
                     *           "to_gp_eur": 11733201.92
                     *         },
                     *         {
                     *           "tier": "carried_interest_split",
                     *           "total_eur": 21333990.4,
                     *           "to_lps_eur": 17067192.32,
                     *           "to_gp_eur": 4266798.08
                     *         }
                     *       ],
                     *       "totals": {
                     *         "to_lps_eur": 164000000,
                     *         "to_gp_eur": 16000000,
                     *         "gp_carry_eur": 16000000,
                     *         "gp_commitment_distributions_eur": 0
                     *       },
                     *       "effective_carry_pct": 20,
                     *       "hurdle_met": true,
                     *       "catch_up_complete": true,
                     *       "notes": [
                     *         "European (whole-fund) waterfall: no carry until the investors have all contributed capital back plus the preferred return.",
                     *         "Preferred return compounded annually: C·((1 + 8 %)^5 − 1), one holding period for all capital."
                     *       ],
                     *       "sources": [
                     *         "ILPA Principles 3.0 (Institutional Limited Partners Association, 2019), \"GP and Fund Economics — Waterfall Structure\": whole-of-fund (\"all capital back\") waterfall"
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CommissionResult"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body exceeds 1 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEmissionsReport: {
        parameters: {
            query: {
                /** @description First day of the period (UTC), YYYY-MM-DD, 2000-01-01 or later. */
                start_date: string;
                /** @description Last day of the period (UTC, inclusive), YYYY-MM-DD: not before start_date, not after today, at most 366 days counting both ends. */
                end_date: string;
                /** @description `json` (default) or `csv` (`text/csv; charset=utf-8`: header, one row per vehicle, a final TOTAL row). */
                format?: "json" | "csv";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "period_start": "2026-01-01",
                     *       "period_end": "2026-01-31",
                     *       "total_vehicles": 42,
                     *       "ev_count": 29,
                     *       "ice_count": 13,
                     *       "total_co2_kg_estimate": 0,
                     *       "generated_at": "2026-11-24T06:01:29.208Z",
                     *       "method_version": "emissions-2027.02",
                     *       "factors": {
                     *         "version": "factors-2025.1",
                     *         "used": []
                     *       },
                     *       "vehicles": [
                     *         {
                     *           "device_id": "oem-XP7JG9KK0TG769883",
                     *           "device_name": "Tesla Model Y Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-001",
                     *           "device_name": "Tesla Model Y Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-002",
                     *           "device_name": "Tesla Model Y Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-004",
                     *           "device_name": "Tesla Model 3 Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-005",
                     *           "device_name": "Volkswagen ID.4 Pro",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-006",
                     *           "device_name": "Volkswagen ID.4 Pro",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-007",
                     *           "device_name": "Skoda Enyaq 85",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-008",
                     *           "device_name": "Skoda Enyaq 85",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-009",
                     *           "device_name": "Skoda Enyaq 85",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-010",
                     *           "device_name": "Kia EV6 Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-011",
                     *           "device_name": "Volvo XC40 Recharge Twin",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-012",
                     *           "device_name": "Hyundai Ioniq 5 Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-013",
                     *           "device_name": "Polestar 2 Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-014",
                     *           "device_name": "BMW i4 eDrive40",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-015",
                     *           "device_name": "Nissan Leaf 40 kWh",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-016",
                     *           "device_name": "MG MG4 Long Range",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-017",
                     *           "device_name": "Volkswagen ID. Buzz Cargo",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-018",
                     *           "device_name": "Volkswagen ID. Buzz Cargo",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-019",
                     *           "device_name": "Mercedes-Benz eVito Panel Van",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-020",
                     *           "device_name": "Toyota Proace Electric",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-021",
                     *           "device_name": "Ford E-Transit Custom",
                     *           "powertrain": "BEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-022",
                     *           "device_name": "Toyota RAV4 Plug-in Hybrid",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-023",
                     *           "device_name": "Toyota RAV4 Plug-in Hybrid",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-024",
                     *           "device_name": "Mitsubishi Outlander PHEV",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-025",
                     *           "device_name": "Mitsubishi Outlander PHEV",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-026",
                     *           "device_name": "Volkswagen Passat GTE Variant",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-027",
                     *           "device_name": "Volvo XC60 Recharge T6",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-028",
                     *           "device_name": "Skoda Superb iV Combi",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-029",
                     *           "device_name": "BMW 330e Touring",
                     *           "powertrain": "PHEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-030",
                     *           "device_name": "Toyota Corolla Touring Sports Hybrid",
                     *           "powertrain": "HEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-031",
                     *           "device_name": "Toyota C-HR Hybrid",
                     *           "powertrain": "HEV",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-032",
                     *           "device_name": "Skoda Octavia Combi 2.0 TDI",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-033",
                     *           "device_name": "Skoda Octavia Combi 2.0 TDI",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-034",
                     *           "device_name": "Skoda Octavia Combi 1.5 TSI",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-035",
                     *           "device_name": "Volvo V60 B4",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": null,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-036",
                     *           "device_name": "Toyota Hilux 2.4 D-4D",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-037",
                     *           "device_name": "Volkswagen Transporter 2.0 TDI",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-039",
                     *           "device_name": "Ford Transit Custom 2.0 EcoBlue",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-040",
                     *           "device_name": "Ford Transit Custom 2.0 EcoBlue",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-041",
                     *           "device_name": "Renault Trafic 2.0 dCi",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "sbx-042",
                     *           "device_name": "Mercedes-Benz Sprinter 316 CDI",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         },
                     *         {
                     *           "device_id": "traccar-356861967224614",
                     *           "device_name": "Volkswagen Transporter 2.0 TDI",
                     *           "powertrain": "ICE",
                     *           "distance_km": 0,
                     *           "distance_method": "none",
                     *           "distance_note": "No distance data: neither two plausible odometer readings nor two positions in the period (no data is not zero driving).",
                     *           "distance_evidence": {
                     *             "odometer_km": null,
                     *             "odometer_readings": 0,
                     *             "odometer_rollbacks": [],
                     *             "odometer_spikes": 0,
                     *             "odometer_jumps": 0,
                     *             "odometer_contradicted_drops": 0,
                     *             "gps_km": 0
                     *           },
                     *           "energy_kwh": 0,
                     *           "fuel_l": 0,
                     *           "energy_method": "none",
                     *           "co2_kg": 0,
                     *           "factor_ids": []
                     *         }
                     *       ],
                     *       "notes": [
                     *         "Distance: the sum of the odometer's plausible consecutive increases in the period (a rollback or reset does not erase distance driven; one-sample spikes and implausible jumps are not counted), else, where the odometer is unusable (fewer than two plausible readings, or increases below the positions' great-circle distance), the great-circle sum of consecutive plausible positions (a lower bound of the road distance). Each vehicle's distance_method names which; distance_note says what was set aside.",
                     *         "Electricity: kWh at the plug (charger losses included) × the Finnish grid factor, location-based; measured from SOC telemetry where possible, else the DESNZ-implied consumption.",
                     *         "Fuel: DESNZ 2025 per-km factors, tank-to-wheel plus well-to-tank where DESNZ publishes the add-on (average cars, diesel and petrol); fuel_l only where a per-litre factor is registered (diesel).",
                     *         "Vehicle manufacture and battery production are excluded. Method: FDP's emissions method emissions-2027.02."
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["EmissionsReport"];
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    generateCsrdReport: {
        parameters: {
            query: {
                /** @description First day of the period (UTC), YYYY-MM-DD, 2000-01-01 or later. */
                start_date: string;
                /** @description Last day of the period (UTC, inclusive), YYYY-MM-DD: not before start_date, not after today, at most 366 days counting both ends. */
                end_date: string;
                /** @description `pdf` (default: `application/pdf`, a table per section and a chart) or `json` (the same report, SPEC 2.11). */
                format?: "pdf" | "json";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "period": {
                     *         "start_date": "2026-01-01",
                     *         "end_date": "2026-01-31",
                     *         "days": 31
                     *       },
                     *       "reporting_role": "operator",
                     *       "consolidation_basis": "Operator, operational control (GHG Protocol Corporate Standard): the account operates the fleet, so the fuel its vehicles burn is Scope 1 and their charging electricity Scope 2, for every vehicle including those it leases in or out; Scope 3 category 13 (downstream leased assets) is not reported, since it would count the same emissions twice.",
                     *       "fleet_summary": {
                     *         "total_vehicles": 42,
                     *         "by_powertrain": {
                     *           "BEV": 21,
                     *           "PHEV": 8,
                     *           "HEV": 2,
                     *           "ICE": 11,
                     *           "unknown": 0
                     *         },
                     *         "ev_count": 29,
                     *         "ice_count": 13,
                     *         "distance_km": 0,
                     *         "leased_vehicles_in_period": 37,
                     *         "energy_consumption": {
                     *           "total": {
                     *             "value": 0,
                     *             "unit": "MWh",
                     *             "datapoint": "E1-5 §37",
                     *             "label": "Total energy consumption (fuel and electricity of the fleet)"
                     *           },
                     *           "fossil": {
                     *             "value": 0,
                     *             "unit": "MWh",
                     *             "datapoint": "E1-5 §37, fossil sources (estimates: fuel by the statutory bio share, electricity location-based)",
                     *             "label": "Energy consumption from fossil sources: fuel × (1 − the distribution obligation's bio share, 13.5 %), plus electricity × the Finnish fossil generation share (estimates: real fuel blends differ from the statutory minimum; AR 32(j) counts electricity by its contractual origin)"
                     *           },
                     *           "nuclear": {
                     *             "value": 0,
                     *             "unit": "MWh",
                     *             "datapoint": "E1-5 §37, nuclear sources (location-based estimate)",
                     *             "label": "Energy consumption from nuclear sources: electricity × the Finnish nuclear generation share (an estimate: replace with the supplier's contractual mix)"
                     *           },
                     *           "renewable": {
                     *             "value": 0,
                     *             "unit": "MWh",
                     *             "datapoint": "E1-5 §37, renewable sources (estimates: fuel by the statutory bio share, electricity location-based)",
                     *             "label": "Energy consumption from renewable sources: fuel × the distribution obligation's bio share (13.5 %, a statutory minimum, not a measured blend), plus electricity × the Finnish renewable generation share. An estimate: ESRS E1 AR 32(j) counts purchased electricity as renewable only where the contract defines its origin (guarantees of origin); without such instruments, replace with the supplier's contractual mix"
                     *           },
                     *           "fuel_mwh": 0,
                     *           "fuel_fossil_mwh": 0,
                     *           "fuel_renewable_mwh": 0,
                     *           "fuel_bio_share": {
                     *             "share": 0.135,
                     *             "basis": "Finnish distribution obligation (Act 446/2007 as amended): the statutory minimum share of renewable fuel in the energy content of the petrol and diesel a distributor delivers, by calendar year, weighted by the period's days in each year. A calculated minimum across all of a distributor's deliveries (over-delivery and, from 2025, renewable electricity at public charging points count towards it): real blends differ by fuel (E10 petrol carries much less than diesel).",
                     *             "years": [
                     *               {
                     *                 "year": 2026,
                     *                 "days": 31,
                     *                 "share": 0.135,
                     *                 "status": "estimate",
                     *                 "verified": false,
                     *                 "source": "Estimate: the statutory levels for 2025 onwards (government proposal HE 121/2024 vp: rising moderately from the 2024 level, below the levels of the earlier law) were not verified; FDP applies the 2024 level, 13.5 %"
                     *               }
                     *             ]
                     *           },
                     *           "electricity_mwh": 0,
                     *           "leased_out_mwh": 0,
                     *           "electricity_mix": {
                     *             "renewable_share": 0.57,
                     *             "nuclear_share": 0.38,
                     *             "fossil_share": 0.05,
                     *             "year": 2024,
                     *             "basis": "Finnish domestic electricity generation by source (location-based), Statistics Finland 2024 preliminary"
                     *           },
                     *           "factors_version": "energy-factors-2026.1"
                     *         }
                     *       },
                     *       "emissions": {
                     *         "unit": "tCO2e",
                     *         "scope_1": {
                     *           "value": 0,
                     *           "unit": "tCO2e",
                     *           "datapoint": "E1-6 §44(a)",
                     *           "label": "Gross Scope 1 GHG emissions: fleet fuel, tank-to-wheel"
                     *         },
                     *         "scope_2_location_based": {
                     *           "value": 0,
                     *           "unit": "tCO2e",
                     *           "datapoint": "E1-6 §44(b), location-based",
                     *           "label": "Gross location-based Scope 2 GHG emissions: BEV charging electricity × the Finnish grid generation factor (88 g CO2e/kWh, 2024, not verified: an upper bound; PHEV charging not measured)",
                     *           "grid_factor": {
                     *             "id": "fi_grid_generation",
                     *             "value": 88,
                     *             "unit": "g CO2e/kWh",
                     *             "year": 2024,
                     *             "basis": "generation (combustion), no upstream",
                     *             "source": "Statistics Finland, StatFin table 14qt, CO2 emission coefficient for electricity generation (value not retrieved: see note)",
                     *             "verified": false,
                     *             "note": "No generation-basis figure could be verified (the StatFin 14qt value for 2024 was not retrievable): the life-cycle figure fi_grid_electricity (88 g CO2e/kWh, 2024, lowcarbonpower.org) is applied as an upper bound of the generation factor, so Scope 2 location-based is overstated by the upstream of generation and the electricity upstream in category 3 is 0."
                     *           }
                     *         },
                     *         "scope_2_market_based": {
                     *           "value": null,
                     *           "unit": "tCO2e",
                     *           "datapoint": "E1-6 §44(b), market-based",
                     *           "label": "Gross market-based Scope 2 GHG emissions: BEV charging electricity × the electricity contract factor",
                     *           "contract_factor_g_per_kwh": null
                     *         },
                     *         "scope_3": {
                     *           "value": 0,
                     *           "unit": "tCO2e",
                     *           "datapoint": "E1-6 §44(c)",
                     *           "label": "Gross Scope 3 GHG emissions reported: category 3 (category 13 is not reported by an operator)"
                     *         },
                     *         "scope_3_categories": {
                     *           "cat_3_fuel_and_energy_related": {
                     *             "value": 0,
                     *             "unit": "tCO2e",
                     *             "datapoint": "E1-6 §44(c), category 3",
                     *             "label": "Fuel- and energy-related activities: well-to-tank of the fleet's fuels and upstream of its charging electricity (life-cycle − generation)",
                     *             "fuel_well_to_tank": 0,
                     *             "electricity_upstream": 0
                     *           },
                     *           "cat_13_downstream_leased_assets": {
                     *             "value": null,
                     *             "unit": "tCO2e",
                     *             "datapoint": "E1-6 §44(c), category 13",
                     *             "label": "Downstream leased assets: not reported",
                     *             "reported": false,
                     *             "included_in_total": false,
                     *             "reason": "Not reported: the account reports as the fleet's operator (reporting_role operator), so the emissions of every vehicle, leased out or not, are its Scope 1 and 2; reporting them in category 13 as well would count them twice. A lessor whose lessees operate the vehicles sets reporting_role lessor (admin CLI tenant:update --reporting-role lessor).",
                     *             "lessee_scope_1_and_2": null,
                     *             "fuel_and_energy_upstream": null,
                     *             "vehicles": 0
                     *           }
                     *         },
                     *         "leased_vehicles": [
                     *           {
                     *             "device_id": "sbx-001",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-002",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-004",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-006",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-007",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-008",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-009",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-010",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-011",
                     *             "covered_days": 23,
                     *             "covered_share": 0.741935,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-012",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-013",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-015",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-016",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-017",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-018",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-019",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-020",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-021",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-022",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-023",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-024",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-025",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-026",
                     *             "covered_days": 21,
                     *             "covered_share": 0.677419,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-027",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-028",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-030",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-032",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-033",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-034",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-035",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-036",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-037",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-039",
                     *             "covered_days": 28,
                     *             "covered_share": 0.903226,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-040",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-041",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "sbx-042",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           },
                     *           {
                     *             "device_id": "traccar-356861967224614",
                     *             "covered_days": 31,
                     *             "covered_share": 1,
                     *             "cat_13": 0,
                     *             "own_operation": 0
                     *           }
                     *         ],
                     *         "total_location_based": {
                     *           "value": 0,
                     *           "unit": "tCO2e",
                     *           "datapoint": "E1-6 §44(d), §52(a)",
                     *           "label": "Total GHG emissions (location-based Scope 2) = Scope 1 + Scope 2 (location-based) + Scope 3"
                     *         },
                     *         "total_market_based": {
                     *           "value": null,
                     *           "unit": "tCO2e",
                     *           "datapoint": "E1-6 §44(d), §52(b)",
                     *           "label": "Total GHG emissions (market-based Scope 2) = Scope 1 + Scope 2 (market-based) + Scope 3"
                     *         },
                     *         "emissions_report": {
                     *           "total_co2_kg_estimate": 0,
                     *           "method_version": "emissions-2027.02",
                     *           "factors_version": "factors-2025.1"
                     *         }
                     *       },
                     *       "green_fleet_score": {
                     *         "green_fleet_score": 59.5,
                     *         "score_version": "green-fleet-2027.01",
                     *         "confidence": "low",
                     *         "components": {
                     *           "ev_share": 69,
                     *           "co2_intensity": 49.9,
                     *           "energy_efficiency": null
                     *         },
                     *         "weights": {
                     *           "ev_share": 0.4,
                     *           "co2_intensity": 0.4,
                     *           "energy_efficiency": 0.2
                     *         },
                     *         "period_days": 31,
                     *         "limitations": [
                     *           "No telemetry was available for this score.",
                     *           "No odometer distance is known for the period: CO2 intensity weights every vehicle equally instead of by distance.",
                     *           "energy_efficiency could not be computed (no BEV whose consumption was measured from SOC and odometer in the period); it is left out of the weighting.",
                     *           "oem-XP7JG9KK0TG769883: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-001: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-002: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-004: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-005: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-006: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-007: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-008: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-009: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-010: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-011: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-012: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-013: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-014: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-015: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-016: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-017: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-018: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-019: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-020: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "sbx-021: consumption not measured, only 0 km were driven with SOC and odometer known at both ends (at least 20 km needed); its CO2 uses the DEFRA-implied consumption instead.",
                     *           "EV electricity uses a Finnish grid factor of 88 gCO2e/kWh (life-cycle CO2e (EU 2023/1185 method), Finland 2024) on consumption measured at the plug (SOC changes × usable capacity ÷ charging efficiency). Fuel factors are DEFRA 2025 tank-to-wheel; well-to-tank and vehicle manufacture are excluded.",
                     *           "PHEV emissions use DEFRA's average plug-in hybrid factor; the real electric share of each PHEV is not measured."
                     *         ]
                     *       },
                     *       "ev_metrics": {
                     *         "bev_count": 21,
                     *         "phev_count": 8,
                     *         "ev_count": 29,
                     *         "ev_share_pct": 69,
                     *         "ev_distance_km": 0,
                     *         "ev_distance_share_pct": null,
                     *         "electricity_mwh": 0,
                     *         "trend": [
                     *           {
                     *             "month": "2026-01",
                     *             "active_vehicles": 0,
                     *             "ev_active_vehicles": 0,
                     *             "ev_share_pct": null
                     *           }
                     *         ]
                     *       },
                     *       "data_quality": {
                     *         "distance_method": {
                     *           "odometer": 0,
                     *           "odometer_plausible_increases": 0,
                     *           "gps_great_circle": 0,
                     *           "none": 42
                     *         },
                     *         "odometer_rollback_vehicles": [],
                     *         "energy_method": {
                     *           "telemetry_soc": 0,
                     *           "consumption_factor": 0,
                     *           "none": 42
                     *         },
                     *         "vehicles_without_data": 42,
                     *         "limitations": [
                     *           "42 vehicle(s) reported neither two plausible odometer readings nor positions in the period: distance, energy and emissions 0 (no data is not zero driving).",
                     *           "PHEVs are reported on DESNZ's per-km PHEV factor (tank-to-wheel, Scope 1); their grid electricity is not measured and not in Scope 2 or the electricity figures."
                     *         ]
                     *       },
                     *       "generated_at": "2026-11-24T06:01:29.295Z",
                     *       "method_version": "csrd-2027.03",
                     *       "esrs_version": "ESRS E1 (Climate change), set 1: Commission Delegated Regulation (EU) 2023/2772",
                     *       "notes": [
                     *         "Built from the emissions report (emissions-2027.02, factors factors-2025.1) of the same dates: Scope 1 + Scope 2 (location-based) + Scope 3 = its total_co2_kg_estimate, to the gram; every gram of every vehicle is in exactly one of them.",
                     *         "Reporting role operator: every vehicle's fuel is Scope 1 and its charging electricity Scope 2, including vehicles with a lease contract (leased_vehicles lists them); category 13 is not reported (null).",
                     *         "Scope 2 location-based uses the Finnish grid GENERATION factor (88 g CO2e/kWh, 2024, basis: generation (combustion), no upstream); the upstream of the electricity (the emissions report's life-cycle factor 88 g CO2e/kWh − generation) is Scope 3 category 3 (GHG Protocol). No generation-basis figure could be verified (the StatFin 14qt value for 2024 was not retrievable): the life-cycle figure fi_grid_electricity (88 g CO2e/kWh, 2024, lowcarbonpower.org) is applied as an upper bound of the generation factor, so Scope 2 location-based is overstated by the upstream of generation and the electricity upstream in category 3 is 0.",
                     *         "Scope 2 market-based: no electricity contract factor is configured for this account (your FDP administrator sets it): null, and the market-based total with it.",
                     *         "Energy (E1-5): Electricity at the plug (charger losses included) split by the Finnish generation mix of the year named: a location-based estimate. ESRS E1 AR 32(j) counts purchased electricity as renewable only where the contract defines its origin (guarantees of origin); replace the split with the supplier's contractual mix where you have one.",
                     *         "Fuel energy = tank-to-wheel CO2e ÷ the fuel's CO2 per kWh (gross calorific value, about 6 % above net), split into renewable and fossil by the Finnish distribution obligation's bio share (2026: 13.5 %, estimate, not verified; weighted by days: 13.5 %). The statutory share is a calculated minimum across a distributor's deliveries, not a measured blend: real blends differ by fuel. The DESNZ per-km factors are for the UK average blend: the energy of its bio share is left out (about 3 % low for B7 diesel), and Scope 1 does not reflect the Finnish bio share. PHEV charging electricity is not measured: PHEVs count their fuel only.",
                     *         "Vehicle manufacture, battery production and end of life are excluded. Method: FDP's CSRD method csrd-2027.03."
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["CsrdReport"];
                    "application/pdf": string;
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSpotPrices: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "market": "FI",
                     *       "source": "recorded:2024-02-21",
                     *       "cached": false,
                     *       "fetched_at": "2024-02-21T06:43:15.000Z",
                     *       "stale": true,
                     *       "stale_since": "2024-02-21T06:58:15.000Z",
                     *       "resolution": "PT60M",
                     *       "vat_rate_pct": 24,
                     *       "prices": [
                     *         {
                     *           "start": "2024-02-20T22:00:00.000Z",
                     *           "end": "2024-02-20T23:00:00.000Z",
                     *           "price_cents_kwh": 4.465,
                     *           "price_cents_kwh_with_vat": 4.465,
                     *           "price_cents_kwh_without_vat": 3.601
                     *         },
                     *         {
                     *           "start": "2024-02-20T23:00:00.000Z",
                     *           "end": "2024-02-21T00:00:00.000Z",
                     *           "price_cents_kwh": 4.634,
                     *           "price_cents_kwh_with_vat": 4.634,
                     *           "price_cents_kwh_without_vat": 3.737
                     *         },
                     *         {
                     *           "start": "2024-02-21T00:00:00.000Z",
                     *           "end": "2024-02-21T01:00:00.000Z",
                     *           "price_cents_kwh": 4.562,
                     *           "price_cents_kwh_with_vat": 4.562,
                     *           "price_cents_kwh_without_vat": 3.679
                     *         },
                     *         {
                     *           "start": "2024-02-21T01:00:00.000Z",
                     *           "end": "2024-02-21T02:00:00.000Z",
                     *           "price_cents_kwh": 4.566,
                     *           "price_cents_kwh_with_vat": 4.566,
                     *           "price_cents_kwh_without_vat": 3.682
                     *         },
                     *         {
                     *           "start": "2024-02-21T02:00:00.000Z",
                     *           "end": "2024-02-21T03:00:00.000Z",
                     *           "price_cents_kwh": 4.566,
                     *           "price_cents_kwh_with_vat": 4.566,
                     *           "price_cents_kwh_without_vat": 3.682
                     *         },
                     *         {
                     *           "start": "2024-02-21T03:00:00.000Z",
                     *           "end": "2024-02-21T04:00:00.000Z",
                     *           "price_cents_kwh": 4.706,
                     *           "price_cents_kwh_with_vat": 4.706,
                     *           "price_cents_kwh_without_vat": 3.795
                     *         },
                     *         {
                     *           "start": "2024-02-21T04:00:00.000Z",
                     *           "end": "2024-02-21T05:00:00.000Z",
                     *           "price_cents_kwh": 4.838,
                     *           "price_cents_kwh_with_vat": 4.838,
                     *           "price_cents_kwh_without_vat": 3.902
                     *         },
                     *         {
                     *           "start": "2024-02-21T05:00:00.000Z",
                     *           "end": "2024-02-21T06:00:00.000Z",
                     *           "price_cents_kwh": 5.3,
                     *           "price_cents_kwh_with_vat": 5.3,
                     *           "price_cents_kwh_without_vat": 4.274
                     *         },
                     *         {
                     *           "start": "2024-02-21T06:00:00.000Z",
                     *           "end": "2024-02-21T07:00:00.000Z",
                     *           "price_cents_kwh": 6.62,
                     *           "price_cents_kwh_with_vat": 6.62,
                     *           "price_cents_kwh_without_vat": 5.339
                     *         },
                     *         {
                     *           "start": "2024-02-21T07:00:00.000Z",
                     *           "end": "2024-02-21T08:00:00.000Z",
                     *           "price_cents_kwh": 6.857,
                     *           "price_cents_kwh_with_vat": 6.857,
                     *           "price_cents_kwh_without_vat": 5.53
                     *         },
                     *         {
                     *           "start": "2024-02-21T08:00:00.000Z",
                     *           "end": "2024-02-21T09:00:00.000Z",
                     *           "price_cents_kwh": 6.966,
                     *           "price_cents_kwh_with_vat": 6.966,
                     *           "price_cents_kwh_without_vat": 5.618
                     *         },
                     *         {
                     *           "start": "2024-02-21T09:00:00.000Z",
                     *           "end": "2024-02-21T10:00:00.000Z",
                     *           "price_cents_kwh": 6.889,
                     *           "price_cents_kwh_with_vat": 6.889,
                     *           "price_cents_kwh_without_vat": 5.556
                     *         },
                     *         {
                     *           "start": "2024-02-21T10:00:00.000Z",
                     *           "end": "2024-02-21T11:00:00.000Z",
                     *           "price_cents_kwh": 6.863,
                     *           "price_cents_kwh_with_vat": 6.863,
                     *           "price_cents_kwh_without_vat": 5.535
                     *         },
                     *         {
                     *           "start": "2024-02-21T11:00:00.000Z",
                     *           "end": "2024-02-21T12:00:00.000Z",
                     *           "price_cents_kwh": 6.416,
                     *           "price_cents_kwh_with_vat": 6.416,
                     *           "price_cents_kwh_without_vat": 5.174
                     *         },
                     *         {
                     *           "start": "2024-02-21T12:00:00.000Z",
                     *           "end": "2024-02-21T13:00:00.000Z",
                     *           "price_cents_kwh": 6.199,
                     *           "price_cents_kwh_with_vat": 6.199,
                     *           "price_cents_kwh_without_vat": 4.999
                     *         },
                     *         {
                     *           "start": "2024-02-21T13:00:00.000Z",
                     *           "end": "2024-02-21T14:00:00.000Z",
                     *           "price_cents_kwh": 6.401,
                     *           "price_cents_kwh_with_vat": 6.401,
                     *           "price_cents_kwh_without_vat": 5.162
                     *         },
                     *         {
                     *           "start": "2024-02-21T14:00:00.000Z",
                     *           "end": "2024-02-21T15:00:00.000Z",
                     *           "price_cents_kwh": 6.279,
                     *           "price_cents_kwh_with_vat": 6.279,
                     *           "price_cents_kwh_without_vat": 5.064
                     *         },
                     *         {
                     *           "start": "2024-02-21T15:00:00.000Z",
                     *           "end": "2024-02-21T16:00:00.000Z",
                     *           "price_cents_kwh": 6.55,
                     *           "price_cents_kwh_with_vat": 6.55,
                     *           "price_cents_kwh_without_vat": 5.282
                     *         },
                     *         {
                     *           "start": "2024-02-21T16:00:00.000Z",
                     *           "end": "2024-02-21T17:00:00.000Z",
                     *           "price_cents_kwh": 6.912,
                     *           "price_cents_kwh_with_vat": 6.912,
                     *           "price_cents_kwh_without_vat": 5.574
                     *         },
                     *         {
                     *           "start": "2024-02-21T17:00:00.000Z",
                     *           "end": "2024-02-21T18:00:00.000Z",
                     *           "price_cents_kwh": 6.801,
                     *           "price_cents_kwh_with_vat": 6.801,
                     *           "price_cents_kwh_without_vat": 5.485
                     *         },
                     *         {
                     *           "start": "2024-02-21T18:00:00.000Z",
                     *           "end": "2024-02-21T19:00:00.000Z",
                     *           "price_cents_kwh": 6.532,
                     *           "price_cents_kwh_with_vat": 6.532,
                     *           "price_cents_kwh_without_vat": 5.268
                     *         },
                     *         {
                     *           "start": "2024-02-21T19:00:00.000Z",
                     *           "end": "2024-02-21T20:00:00.000Z",
                     *           "price_cents_kwh": 5.708,
                     *           "price_cents_kwh_with_vat": 5.708,
                     *           "price_cents_kwh_without_vat": 4.603
                     *         },
                     *         {
                     *           "start": "2024-02-21T20:00:00.000Z",
                     *           "end": "2024-02-21T21:00:00.000Z",
                     *           "price_cents_kwh": 5.101,
                     *           "price_cents_kwh_with_vat": 5.101,
                     *           "price_cents_kwh_without_vat": 4.114
                     *         },
                     *         {
                     *           "start": "2024-02-21T21:00:00.000Z",
                     *           "end": "2024-02-21T22:00:00.000Z",
                     *           "price_cents_kwh": 4.882,
                     *           "price_cents_kwh_with_vat": 4.882,
                     *           "price_cents_kwh_without_vat": 3.937
                     *         }
                     *       ]
                     *     }
                     */
                    "application/json": components["schemas"]["SpotPrices"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The source is down, nothing fetched in the last 24 h is cached, and the offline fallback is off (SPOT_PRICE_OFFLINE_FALLBACK=0). Also `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getChargingRecommendation: {
        parameters: {
            query?: {
                /** @description State of charge to reach by the deadline, %. Default 80 (the daily ceiling battery makers recommend; docs/methodology/charging.md). */
                target_soc_pct?: number;
                /** @description Minimum charge level that must be reached at once (charged immediately, whatever the price), %. Default 20; not above target_soc_pct. */
                min_soc_pct?: number;
                /** @description When the vehicle must be charged (RFC 3339 with offset), after now and at most 168 h ahead. Default: the next 07:00 Helsinki time at least one hour away. */
                deadline?: string;
                /** @description AC charging power at the plug, kW. Default: the median of the vehicle's AC charging readings of the last 90 days, else 11 kW (a three-phase 16 A wallbox). */
                ac_power_kw?: number;
                /** @description DC charging power, kW. Default: the median of the vehicle's DC charging readings of the last 90 days, else 50 kW. */
                dc_power_kw?: number;
            };
            header?: never;
            path: {
                /** @description The device id (1–128 characters: letters, digits, '.', '_', ':' or '-', not '.' or '..' alone). */
                device_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "device_id": "sbx-001",
                     *       "recommendation": "charge_later",
                     *       "soc_current_pct": 69.7,
                     *       "soc_reported_at": "2026-11-24T06:00:00.000Z",
                     *       "soc_target_pct": 80,
                     *       "soc_min_pct": 20,
                     *       "energy_needed_kwh": 8.33,
                     *       "energy_to_battery_kwh": 7.42,
                     *       "battery_capacity_kwh": 72,
                     *       "charging_mode": "ac",
                     *       "charging_power_kw": 11,
                     *       "charging_duration_minutes": 45.5,
                     *       "deadline": "2026-11-25T05:00:00.000Z",
                     *       "immediate_charge": null,
                     *       "cheapest_window": null,
                     *       "latest_safe_start": "2026-11-25T03:14:00.000Z",
                     *       "current_price_cents_kwh": null,
                     *       "estimated_cost_cheapest_eur": null,
                     *       "estimated_cost_now_eur": null,
                     *       "savings_pct": null,
                     *       "price_source": null,
                     *       "reason": "No live or recently cached spot prices are available, so no cheaper window can be chosen: start charging by 2026-11-25 05:14 (Helsinki time) at the latest. That is not a price-optimised window: it is the latest start at 11 kW AC (8.3 kWh, 45 min) that still reaches 80 % 1 h before the 2026-11-25 07:00 deadline (the margin is a quarter of the charging time, at least an hour: charging can run slower than planned, in the cold for instance).",
                     *       "method_version": "charging-2027.02",
                     *       "generated_at": "2026-11-24T06:01:29.450Z"
                     *     }
                     */
                    "application/json": components["schemas"]["ChargingRecommendation"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown device, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The device is not an electric vehicle (BEV or PHEV), has reported no state of charge, or has no battery capacity in its master data. */
            422: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "wh_eKbMVLYSq7XL6BXuDyeV",
                     *           "url": "https://93.184.215.14/fdp-webhooks",
                     *           "events": [
                     *             "alert.created",
                     *             "alert.updated",
                     *             "certificate.generated"
                     *           ],
                     *           "description": "Claims system",
                     *           "created_at": "2026-11-24T06:01:29.547Z",
                     *           "last_delivery": null
                     *         }
                     *       ],
                     *       "count": 1,
                     *       "tenant_id": "sandbox"
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookList"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "url": "https://93.184.215.14/fdp-webhooks",
                 *       "events": [
                 *         "alert.created",
                 *         "alert.updated",
                 *         "certificate.generated"
                 *       ],
                 *       "description": "Claims system"
                 *     }
                 */
                "application/json": {
                    /**
                     * @description Where FDP POSTs each event: https (http only outside production, or to loopback with WEBHOOK_ALLOW_LOOPBACK=1); never a private, link-local, multicast or reserved address.
                     * @example https://partner.example/fdp-webhooks
                     */
                    url: string;
                    /** @description The event types to send: alert.created, alert.updated, certificate.generated, certificate.revoked, device.created. */
                    events: ("alert.created" | "alert.updated" | "certificate.generated" | "certificate.revoked" | "device.created")[];
                    /** @description Your own note, e.g. what receives it. */
                    description?: string;
                };
            };
        };
        responses: {
            /** @description Created. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            201: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_eKbMVLYSq7XL6BXuDyeV",
                     *       "url": "https://93.184.215.14/fdp-webhooks",
                     *       "events": [
                     *         "alert.created",
                     *         "alert.updated",
                     *         "certificate.generated"
                     *       ],
                     *       "description": "Claims system",
                     *       "created_at": "2026-11-24T06:01:29.547Z",
                     *       "secret": "whsec_jLhW/u4Ngxcq0xMXI5/7+r2daFYFs6tzpaPP1K5h7jQ="
                     *     }
                     */
                    "application/json": components["schemas"]["CreatedWebhook"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body exceeds 1 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id (`wh_…`). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "wh_eKbMVLYSq7XL6BXuDyeV",
                     *       "url": "https://93.184.215.14/fdp-webhooks",
                     *       "events": [
                     *         "alert.created",
                     *         "alert.updated",
                     *         "certificate.generated"
                     *       ],
                     *       "description": "Claims system",
                     *       "created_at": "2026-11-24T06:01:29.547Z",
                     *       "last_delivery": null
                     *     }
                     */
                    "application/json": components["schemas"]["Webhook"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown webhook id, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id (`wh_…`). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Done; no content. */
            204: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown webhook id, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The webhook's id (`wh_…`). */
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "since": "2026-11-24T00:00:00Z"
                 *     }
                 */
                "application/json": {
                    /**
                     * Format: date-time
                     * @description Re-send this endpoint's subscribed events committed at or after this time.
                     * @example 2026-11-24T00:00:00Z
                     */
                    since: string;
                };
            };
        };
        responses: {
            /** @description Accepted: done in the background. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            202: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "webhook_id": "wh_eKbMVLYSq7XL6BXuDyeV",
                     *       "since": "2026-11-24T00:00:00.000Z",
                     *       "events": 176
                     *     }
                     */
                    "application/json": components["schemas"]["WebhookReplay"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Unknown webhook id, or one of another tenant (the two look the same). */
            404: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body exceeds 1 MiB. */
            413: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not sent as `Content-Type: application/json` (UTF-8). */
            415: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEvents: {
        parameters: {
            query?: {
                /** @description The `next_cursor` of the previous page; absent: from the oldest event kept (at least 30 days). */
                after?: string;
                /** @description Most events to return, 1–500 (default 100). */
                limit?: number;
                /** @description Only events of this type. */
                type?: "alert.created" | "alert.updated" | "certificate.generated" | "certificate.revoked" | "device.created";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK. Answers to the sandbox key also carry `_sandbox: true` (the example is the sandbox's answer without it). */
            200: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "data": [
                     *         {
                     *           "id": "evt_3mzQS70SJlK26KD9TZlW",
                     *           "type": "device.created",
                     *           "timestamp": "2026-11-24T06:01:17.929Z",
                     *           "data": {
                     *             "device_id": "sbx-001"
                     *           }
                     *         },
                     *         {
                     *           "id": "evt_vUDEVaNTFdGylBrCIJvn",
                     *           "type": "device.created",
                     *           "timestamp": "2026-11-24T06:01:17.930Z",
                     *           "data": {
                     *             "device_id": "sbx-002"
                     *           }
                     *         },
                     *         {
                     *           "id": "evt_VaLqXOwxxbfGLlatVm0e",
                     *           "type": "device.created",
                     *           "timestamp": "2026-11-24T06:01:17.930Z",
                     *           "data": {
                     *             "device_id": "oem-XP7JG9KK0TG769883"
                     *           }
                     *         }
                     *       ],
                     *       "next_cursor": "c2VxOjM",
                     *       "has_more": true
                     *     }
                     */
                    "application/json": components["schemas"]["EventsPage"];
                };
            };
            /** @description Invalid request: a malformed, out-of-range or repeated parameter, or a body that is not I-JSON or not valid (see `details`). */
            400: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Missing, unknown or revoked API key. */
            401: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The key lacks the scope this endpoint needs. */
            403: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The method is not served at this path; `Allow` lists those that are. */
            405: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description The methods served at this path. */
                    Allow?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Rate limit exceeded; retry after `Retry-After` seconds. */
            429: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Requests allowed per minute in this limit's window. */
                    "RateLimit-Limit"?: number;
                    /** @description Requests left in the window. */
                    "RateLimit-Remaining"?: number;
                    /** @description Seconds until the window frees a request. */
                    "RateLimit-Reset"?: number;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Server failure; the body never carries internals. Quote `request_id` when reporting it. */
            500: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `service_unavailable`: the database is unreachable, the connection was lost, or a statement ran past its time budget (each write is stored whole or not at all); send the same request again after `Retry-After` seconds. */
            503: {
                headers: {
                    /** @description Identifies this answer in FDP's logs; quote it when reporting a problem. */
                    "X-Request-Id"?: string;
                    /** @description Whole seconds to wait. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    onAlertCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (`evt_…`), as in GET /events. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertCreatedPayload"];
            };
        };
        responses: {
            /** @description Received: answer within 15 s, else the delivery is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then failed. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onAlertUpdated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (`evt_…`), as in GET /events. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AlertUpdatedPayload"];
            };
        };
        responses: {
            /** @description Received: answer within 15 s, else the delivery is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then failed. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCertificateGenerated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (`evt_…`), as in GET /events. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CertificateGeneratedPayload"];
            };
        };
        responses: {
            /** @description Received: answer within 15 s, else the delivery is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then failed. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onCertificateRevoked: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (`evt_…`), as in GET /events. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CertificateRevokedPayload"];
            };
        };
        responses: {
            /** @description Received: answer within 15 s, else the delivery is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then failed. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    onDeviceCreated: {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (`evt_…`), as in GET /events. */
                "webhook-id": string;
                /** @description Unix seconds of this attempt. */
                "webhook-timestamp": string;
                /** @description `v1,<base64 HMAC-SHA256>`. */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DeviceCreatedPayload"];
            };
        };
        responses: {
            /** @description Received: answer within 15 s, else the delivery is retried (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) and then failed. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
