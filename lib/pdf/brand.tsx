import { StyleSheet, Text, View } from "@react-pdf/renderer";
// Relative imports only: this module also runs in the PDF worker thread (tsx, no bundler aliases).
import { MONO } from "../certificates/pdf/certificate-fonts";
import { formatNumber } from "../display/format";

/**
 * What FDP's PDFs (the vehicle certificate, the CSRD report) share: the brand colours, the band and
 * footer, the headline tiles, section titles and number formatting, so the two documents look like
 * one product and a change of brand is made once.
 */
export const BRAND = { ink: "#0f172a", muted: "#475569", faint: "#94a3b8", line: "#e2e8f0", band: "#0b3b5c", accent: "#0e7490", paper: "#f8fafc" };

/** The brand band repeats at the top of every page; each document's page padding keeps flowing content below it. */
export const BAND_HEIGHT = 72;

export const brandStyles = StyleSheet.create({
  band: {
    position: "absolute",
    top: 0,
    left: 0,
    right: 0,
    height: BAND_HEIGHT,
    backgroundColor: BRAND.band,
    color: "#ffffff",
    paddingHorizontal: 36,
    flexDirection: "row",
    justifyContent: "space-between",
    alignItems: "center",
  },
  logo: { fontSize: 22, fontWeight: 700, letterSpacing: 1.5 },
  logoSub: { fontSize: 8.5, color: "#cbd5e1", marginTop: 2 },
  bandRight: { alignItems: "flex-end" },
  docTitle: { fontSize: 13, fontWeight: 600 },
  docSub: { fontFamily: MONO, fontSize: 9, color: "#e2e8f0", marginTop: 3 },
  tiles: { flexDirection: "row", marginBottom: 14 },
  tile: { flexGrow: 1, flexBasis: 0, borderWidth: 1, borderColor: BRAND.line, borderRadius: 6, padding: 9, marginRight: 8 },
  tileLast: { marginRight: 0 },
  tileLabel: { fontSize: 7.5, color: BRAND.muted, textTransform: "uppercase", letterSpacing: 0.5 },
  tileValue: { fontSize: 17, fontWeight: 700, marginTop: 3 },
  tileUnit: { fontSize: 9, fontWeight: 400, color: BRAND.muted },
  section: { marginBottom: 12 },
  sectionTitle: { fontSize: 11, fontWeight: 600, color: BRAND.accent, marginBottom: 4, paddingBottom: 3, borderBottomWidth: 1.5, borderBottomColor: BRAND.accent },
  footer: {
    position: "absolute",
    bottom: 20,
    left: 36,
    right: 36,
    flexDirection: "row",
    justifyContent: "space-between",
    fontSize: 7.5,
    color: BRAND.faint,
    borderTopWidth: 0.5,
    borderTopColor: BRAND.line,
    paddingTop: 5,
  },
});

/** A number as the dashboard and the verify page write it (lib/display/format.ts: thousands grouped with a comma), so one figure reads the same everywhere. */
export function groupDigits(n: number, fractionDigits: number): string {
  return formatNumber(n, fractionDigits);
}

/** A headline figure; `unit` is left out when the value is the document's "not available" wording (`missing`). */
export function Tile({ label, value, unit, last, missing }: { label: string; value: string; unit: string; last?: boolean; missing: string }) {
  const s = brandStyles;
  return (
    <View style={last ? [s.tile, s.tileLast] : s.tile}>
      <Text style={s.tileLabel}>{label}</Text>
      <Text style={s.tileValue}>
        {value}
        {value === missing ? "" : <Text style={s.tileUnit}> {unit}</Text>}
      </Text>
    </View>
  );
}

/** The band at the top of every page: the FDP mark, the document's title and its identifier (a number, a period). */
export function BrandBand({ title, sub }: { title: string; sub: string }) {
  const s = brandStyles;
  return (
    <View style={s.band} fixed>
      <View>
        <Text style={s.logo}>FDP</Text>
        <Text style={s.logoSub}>Fleet Data Products</Text>
      </View>
      <View style={s.bandRight}>
        <Text style={s.docTitle}>{title}</Text>
        <Text style={s.docSub}>{sub}</Text>
      </View>
    </View>
  );
}

/** The footer of every page: what the document is, and "Page n of m". */
export function PageFooter({ label }: { label: string }) {
  return (
    <View style={brandStyles.footer} fixed>
      <Text>FDP - Fleet Data Products · {label}</Text>
      <Text render={({ pageNumber, totalPages }) => `Page ${pageNumber} of ${totalPages}`} />
    </View>
  );
}
