import { bindRoute } from "@/lib/http/bind-route";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = bindRoute("/oem/ingest/traccar");
