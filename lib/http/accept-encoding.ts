/** Content negotiation of the answer's encoding (no dependencies: the benchmark's floor server uses it too). */

/** Whether `Accept-Encoding` accepts gzip (`gzip` or `*`, with a q-value above 0). */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const list = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",");
  let star = false;
  for (const entry of list) {
    const [coding = "", ...parameters] = entry.trim().toLowerCase().split(";");
    const qParam = parameters.map((x) => x.trim()).find((x) => x.startsWith("q="));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    if (coding.trim() === "gzip") return q > 0;
    if (coding.trim() === "*") star = q > 0;
  }
  return star;
}
