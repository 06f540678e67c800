/**
 * A small RFC 4180 CSV parser for the emissions tests (written independently of the writer in
 * lib/reports/emissions-csv.ts): quoted fields may hold commas, doubled quotes and line breaks;
 * records end with CRLF or LF. Throws on a stray quote inside an unquoted field or an unclosed quote.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  let fieldStarted = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i += 1;
        continue;
      }
      field += c;
      i += 1;
      continue;
    }
    if (c === '"') {
      if (fieldStarted) throw new Error(`stray quote at ${i}`);
      quoted = true;
      fieldStarted = true;
      i += 1;
    } else if (c === ",") {
      record.push(field);
      field = "";
      fieldStarted = false;
      i += 1;
    } else if (c === "\r" || c === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      fieldStarted = false;
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      fieldStarted = true;
      i += 1;
    }
  }
  if (quoted) throw new Error("unclosed quote");
  if (fieldStarted || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
