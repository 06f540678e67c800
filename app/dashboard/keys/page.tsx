import { AuditLog } from "@/components/dashboard/audit-log";
import { CreateKeyForm } from "@/components/dashboard/keys/create-key-form";
import { IngestSecretPanel } from "@/components/dashboard/keys/ingest-secret-panel";
import { RevokeKeyButton } from "@/components/dashboard/keys/revoke-key-button";
import { CreateWebhookForm, WebhookActions } from "@/components/dashboard/keys/webhook-forms";
import { listApiKeys, type ApiKeyListRow } from "@/lib/api-keys/list-api-keys";
import { listAuditEvents } from "@/lib/audit/list-audit-events";
import { SCOPES } from "@/lib/auth/key-format";
import { getIngestSettings } from "@/lib/dashboard/key-management/ingest-settings";
import { SANDBOX_INGEST_MESSAGE } from "@/lib/dashboard/key-management/rotate-tenant-ingest-secret";
import { requireDashboardSession } from "@/lib/dashboard/session";
import { SANDBOX_WEBHOOKS_MESSAGE } from "@/lib/dashboard/webhook-management/manage-webhooks";
import { listWebhooks } from "@/lib/webhooks/list-webhooks";
import { listMqttBridges } from "@/lib/ingest/mqtt/list-mqtt-bridges";
import { formatDate, formatDateTime, formatNumber, FLEET_TIME_ZONE_NAME } from "@/lib/display/format";

export const metadata = { title: "API keys — FDP Dashboard" };

const AUDIT_LIMIT = 50;

/** API keys, the ingest secret and the audit log of the signed-in user's tenant (server-rendered from lib/ verbs). */
export default async function KeysPage() {
  const { ctx } = await requireDashboardSession();
  const [keys, ingest, events, webhooks, feeds] = await Promise.all([
    listApiKeys({ ctx }),
    getIngestSettings({ ctx }),
    listAuditEvents({ ctx, input: { limit: AUDIT_LIMIT } }),
    listWebhooks({ ctx, input: {} }),
    listMqttBridges({ ctx, input: { tenantId: ctx.tenantId } }),
  ]);
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">API keys</h1>
      <p className="mt-1 max-w-3xl text-slate-600">
        Keys authenticate calls to <code className="rounded bg-slate-100 px-1 text-sm">/api/v1</code> and the MCP endpoint as{" "}
        <code className="rounded bg-slate-100 px-1 text-sm">Authorization: Bearer &lt;key&gt;</code>. FDP stores only a hash: a new key is shown once.
      </p>

      <section className="mt-8" aria-labelledby="keys-title">
        <h2 id="keys-title" className="text-lg font-semibold">
          Your keys
        </h2>
        {keys.length === 0 ? <EmptyKeys /> : <KeysTable keys={keys} />}
      </section>

      <section className="mt-10 rounded-xl border border-slate-200 bg-white p-4 sm:p-6" aria-labelledby="create-title">
        <h2 id="create-title" className="text-lg font-semibold">
          Create a key
        </h2>
        <p className="mb-4 mt-1 text-sm text-slate-600">Give it a name you will recognise and tick only the scopes it needs; a call outside its scopes is refused.</p>
        <CreateKeyForm scopes={SCOPES} activeKeyIds={keys.filter((k) => k.status === "active").map((k) => k.id)} />
      </section>

      <section className="mt-10 rounded-xl border border-slate-200 bg-white p-4 sm:p-6" aria-labelledby="ingest-title">
        <h2 id="ingest-title" className="text-lg font-semibold">
          Ingest secret
        </h2>
        <p className="mb-4 mt-1 max-w-3xl text-sm text-slate-600">
          The HMAC-SHA256 key your telematics provider signs <code className="rounded bg-slate-100 px-1">POST /api/v1/oem/ingest</code> payloads with (header{" "}
          <code className="rounded bg-slate-100 px-1">X-FDP-Signature: sha256=&lt;hex&gt;</code> over the raw body). Revealing and rotating it are recorded below.
        </p>
        <IngestSecretPanel requireSignedIngest={ingest.requireSignedIngest} managedBySandbox={ingest.managedBySandbox} sandboxMessage={SANDBOX_INGEST_MESSAGE} />
      </section>

      <section className="mt-10 rounded-xl border border-slate-200 bg-white p-4 sm:p-6" aria-labelledby="webhooks-title">
        <h2 id="webhooks-title" className="text-lg font-semibold">
          Webhooks
        </h2>
        <p className="mb-4 mt-1 max-w-3xl text-sm text-slate-600">
          FDP sends your systems each change as it happens: alerts, certificates, new vehicles. Each delivery is signed (Standard Webhooks) and retried for about a day if your
          system does not answer. Your developers find the format and how to verify it in the{" "}
          <a href="/docs" className="font-medium text-brand-700 underline">
            API reference
          </a>
          .
        </p>
        {ingest.managedBySandbox ? (
          <p className="rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600">{SANDBOX_WEBHOOKS_MESSAGE}</p>
        ) : (
          <>
            {webhooks.data.length === 0 ? <p className="mb-6 text-sm text-slate-600">No webhooks yet.</p> : <WebhooksTable webhooks={webhooks.data} />}
            <CreateWebhookForm webhookIds={webhooks.data.map((w) => w.id)} />
          </>
        )}
      </section>

      <section className="mt-10 rounded-xl border border-slate-200 bg-white p-4 sm:p-6" aria-labelledby="feeds-title">
        <h2 id="feeds-title" className="text-lg font-semibold">
          MQTT feeds
        </h2>
        <p className="mb-4 mt-1 max-w-3xl text-sm text-slate-600">
          FDP can read your vehicles&apos; data straight from your own MQTT broker, as Traccar or Tesla Fleet Telemetry publish it. Each message is stored before FDP confirms it to
          the broker, so nothing is lost while FDP or the broker restarts. Your FDP operator sets a feed up with your broker&apos;s address and credentials.
        </p>
        {feeds.length === 0 ? <p className="text-sm text-slate-600">No MQTT feeds.</p> : <FeedsTable feeds={feeds} />}
      </section>

      <section className="mt-10" aria-labelledby="audit-title">
        <h2 id="audit-title" className="text-lg font-semibold">
          Audit log
        </h2>
        <p className="mb-3 mt-1 text-sm text-slate-600">The latest {AUDIT_LIMIT} changes to keys and ingest settings: who, when, what. Secrets are never recorded.</p>
        <AuditLog events={events} caption={`The latest ${AUDIT_LIMIT} changes, newest first`} />
      </section>
    </>
  );
}

function keyLabel(k: ApiKeyListRow): string {
  return k.name ? `${k.name} (${k.displayPrefix}…)` : `${k.displayPrefix}…`;
}

function KeysTable({ keys }: { keys: ApiKeyListRow[] }) {
  return (
    <div
      role="region"
      aria-label="API keys"
      tabIndex={0}
      className="relative mt-3 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="api-keys-table">
        <caption className="sr-only">API keys of your organisation, newest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Name
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Key
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Scopes
            </th>
            <th scope="col" className="whitespace-nowrap px-4 py-3 font-semibold">
              Created
            </th>
            <th scope="col" className="whitespace-nowrap px-4 py-3 font-semibold">
              Last used
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Status
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {keys.map((k) => (
            <tr key={k.id} data-key-id={k.id} data-key-status={k.status} className={k.status === "revoked" ? "text-slate-500" : undefined}>
              <td className="min-w-36 px-4 py-2.5 font-medium">{k.name ?? <span className="font-normal italic text-slate-600">unnamed</span>}</td>
              <td className="whitespace-nowrap px-4 py-2.5 font-mono text-xs">{k.displayPrefix}…</td>
              <td className="min-w-48 px-4 py-2.5">
                {k.scopes.length === SCOPES.length ? (
                  <span>all scopes</span>
                ) : (
                  <ul className="flex flex-wrap gap-1">
                    {k.scopes.map((s) => (
                      <li key={s} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
                        {s}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
              <td className="whitespace-nowrap px-4 py-2.5 tabular-nums">
                <time dateTime={k.createdAt.toISOString()}>{formatDate(k.createdAt)}</time>
              </td>
              <td className="whitespace-nowrap px-4 py-2.5 tabular-nums">
                {k.lastUsedAt ? <time dateTime={k.lastUsedAt.toISOString()}>{formatDateTime(k.lastUsedAt)}</time> : <span className="text-slate-600">never</span>}
              </td>
              <td className="px-4 py-2.5">
                {k.status === "active" ? (
                  <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">Active</span>
                ) : (
                  <span
                    className="whitespace-nowrap rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-800"
                    title={k.revokedAt ? `Revoked ${formatDateTime(k.revokedAt)} (${FLEET_TIME_ZONE_NAME})` : undefined}
                  >
                    Revoked
                  </span>
                )}
              </td>
              <td className="min-w-40 px-4 py-2.5 text-right">{k.status === "active" ? <RevokeKeyButton keyId={k.id} keyLabel={keyLabel(k)} /> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type WebhookRow = Awaited<ReturnType<typeof listWebhooks>>["data"][number];

const DELIVERY_WORDS = { pending: "Sending", delivered: "Delivered", failed: "Failed" } as const;

function LastDelivery({ d }: { d: WebhookRow["last_delivery"] }) {
  if (!d) return <span className="text-slate-600">nothing sent yet</span>;
  const tone = d.status === "delivered" ? "bg-emerald-100 text-emerald-900" : d.status === "failed" ? "bg-red-100 text-red-900" : "bg-amber-100 text-amber-900";
  const when = d.last_attempt_at ? new Date(d.last_attempt_at) : null;
  return (
    <span>
      <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>{DELIVERY_WORDS[d.status]}</span>{" "}
      {when ? <time dateTime={when.toISOString()}>{formatDateTime(when)}</time> : null}
      {d.status !== "delivered" && (d.last_status_code !== null || d.last_error) ? (
        <span className="block text-xs text-slate-600">
          {d.attempts} attempt{d.attempts === 1 ? "" : "s"}: {d.last_error ?? `answered ${d.last_status_code}`}
        </span>
      ) : null}
    </span>
  );
}

function WebhooksTable({ webhooks }: { webhooks: WebhookRow[] }) {
  return (
    <div
      role="region"
      aria-label="Webhooks"
      tabIndex={0}
      className="relative mb-6 overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="webhooks-table">
        <caption className="sr-only">Webhooks of your organisation, oldest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              URL
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Events
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Last delivery
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {webhooks.map((w) => (
            <tr key={w.id} data-webhook-id={w.id}>
              <td className="min-w-48 break-all px-4 py-2.5">
                <span className="font-mono text-xs">{w.url}</span>
                {w.description ? <span className="block text-slate-600">{w.description}</span> : null}
              </td>
              <td className="min-w-40 px-4 py-2.5">
                <ul className="flex flex-wrap gap-1">
                  {w.events.map((e) => (
                    <li key={e} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs text-slate-800">
                      {e}
                    </li>
                  ))}
                </ul>
              </td>
              <td className="min-w-44 px-4 py-2.5" data-testid="webhook-last-delivery">
                <LastDelivery d={w.last_delivery} />
              </td>
              <td className="min-w-44 px-4 py-2.5 text-right">
                <WebhookActions webhookId={w.id} url={w.url} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

type FeedRow = Awaited<ReturnType<typeof listMqttBridges>>[number];

const FEED_STATES = {
  connected: { words: "Connected", tone: "bg-emerald-100 text-emerald-900" },
  connecting: { words: "Connecting", tone: "bg-amber-100 text-amber-900" },
  disconnected: { words: "Disconnected", tone: "bg-red-100 text-red-900" },
  waiting: { words: "Not running", tone: "bg-slate-200 text-slate-800" },
} as const;

const FEED_FORMATS = { traccar: "Traccar positions", tesla: "Tesla Fleet Telemetry" } as const;

function FeedsTable({ feeds }: { feeds: FeedRow[] }) {
  return (
    <div
      role="region"
      aria-label="MQTT feeds"
      tabIndex={0}
      className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="mqtt-feeds-table">
        <caption className="sr-only">MQTT feeds of your organisation, oldest first</caption>
        <thead className="bg-slate-50 text-left text-slate-700">
          <tr>
            <th scope="col" className="px-4 py-3 font-semibold">
              Broker and topics
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Format
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              State
            </th>
            <th scope="col" className="px-4 py-3 font-semibold">
              Messages
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {feeds.map((f) => {
            const state = FEED_STATES[f.state];
            return (
              <tr key={f.id} data-feed-id={f.id}>
                <td className="min-w-48 break-all px-4 py-2.5">
                  <span className="font-mono text-xs">{f.brokerUrl}</span>
                  <span className="block font-mono text-xs text-slate-600">{f.topicFilter}</span>
                </td>
                <td className="whitespace-nowrap px-4 py-2.5">{FEED_FORMATS[f.format]}</td>
                <td className="min-w-44 px-4 py-2.5" data-testid="mqtt-feed-state">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${state.tone}`}>{state.words}</span> since{" "}
                  <time dateTime={f.stateSince.toISOString()}>{formatDateTime(f.stateSince)}</time>
                  {f.state === "disconnected" && f.lastError ? <span className="block text-xs text-slate-600">{f.lastError}</span> : null}
                </td>
                <td className="min-w-52 px-4 py-2.5" data-testid="mqtt-feed-messages">
                  {formatNumber(f.messagesIngested)} stored, {formatNumber(f.messagesRefused)} refused
                  {f.lastMessageAt ? (
                    <span className="block text-xs text-slate-600">
                      last <time dateTime={f.lastMessageAt.toISOString()}>{formatDateTime(f.lastMessageAt)}</time>
                    </span>
                  ) : null}
                  {f.lastRefusal ? <span className="block text-xs text-slate-600">Last refused: {f.lastRefusal}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function EmptyKeys() {
  return (
    <div className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white px-6 py-10 text-center">
      <p className="text-base font-semibold text-slate-900">No API keys yet</p>
      <p className="mx-auto mt-2 max-w-md text-sm text-slate-600">
        Create one below to call the API from your systems, or to let your telematics provider send data with the <code className="rounded bg-slate-100 px-1">ingest:write</code>{" "}
        scope. The public sandbox key in the API reference works without one.
      </p>
      <a
        href="#create-title"
        className="mt-4 inline-block rounded-md bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-offset-2"
      >
        Create a key
      </a>
    </div>
  );
}
