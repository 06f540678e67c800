import { createHash, sign as rsaSign, verify as rsaVerify, X509Certificate, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { plainAddPlaceholder } from "@signpdf/placeholder-plain";
import signpdfModule from "@signpdf/signpdf";
import { Signer, SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { certificateDer, certificateFingerprint } from "./pdf-signing-certificate";

/**
 * The certificate PDF's signature: a standard PDF signature, PAdES baseline B-B (ETSI EN 319 142-1):
 * a signature dictionary with SubFilter `ETSI.CAdES.detached` whose /Contents is a CMS SignedData
 * (RFC 5652) over the /ByteRange, i.e. every byte of the file but the /Contents hex string itself,
 * with the signed attributes content-type, message-digest and ESS signing-certificate-v2 (RFC 5035;
 * B-B requires it and forbids a signing-time attribute: the time is the dictionary's /M). poppler's
 * `pdfsig`, Adobe Reader and any PAdES validator check it; a changed byte gives "digest mismatch".
 *
 * @signpdf adds the signature field as an incremental update and writes the CMS into the placeholder;
 * the CMS is built here with node-forge's ASN.1 (its PKCS#7 signer cannot write signing-certificate-v2)
 * and signed with node:crypto. `verifyPdfSignature` is the same check done here, so the verify page and
 * the offline CLI need no external tool.
 */

const signpdf = (signpdfModule as unknown as { default?: typeof signpdfModule }).default ?? signpdfModule;

/** Room for the CMS in the file (hex digits / 2): an RSA-3072 signature and a ~1 KiB certificate fit with margin. */
const SIGNATURE_BYTES = 8192;
const OID_SIGNING_CERTIFICATE_V2 = "1.2.840.113549.1.9.16.2.47";

export interface PdfSigner {
  privateKey: KeyObject;
  certificatePem: string;
}

const { asn1 } = forge;
const seq = (value: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, value);

/** ESS signing-certificate-v2: SEQUENCE { SEQUENCE OF ESSCertIDv2 { certHash } } (SHA-256, the default hash, is left implicit). */
function signingCertificateV2(der: Buffer): forge.asn1.Asn1 {
  const hash = createHash("sha256").update(der).digest().toString("binary");
  return seq([seq([seq([asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, hash)])])]);
}

const oid = (o: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(o).getBytes());
const octets = (b: Buffer) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, b.toString("binary"));
const set = (value: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, value);
const int = (n: number) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(n).getBytes());
const sha256AlgId = () => seq([oid(forge.pki.oids.sha256!), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "")]);
const attr = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);
const der = (x: forge.asn1.Asn1) => Buffer.from(asn1.toDer(x).getBytes(), "binary");

/** The signed attributes of the CMS (RFC 5652 5.3, ETSI EN 319 122-1 B-B): content type, message digest, signing-certificate-v2. */
function signedAttributes(contentDigest: Buffer, certDer: Buffer): forge.asn1.Asn1[] {
  return [
    attr(forge.pki.oids.contentType!, oid(forge.pki.oids.data!)),
    attr(forge.pki.oids.messageDigest!, octets(contentDigest)),
    attr(OID_SIGNING_CERTIFICATE_V2, signingCertificateV2(certDer)),
  ];
}

/** A detached CMS SignedData over `content` (the PDF's byte range) by one RSA signer, built field by field. */
export function cmsSignDetached(content: Buffer, signer: PdfSigner): Buffer {
  const certDer = certificateDer(signer.certificatePem);
  const attrs = signedAttributes(createHash("sha256").update(content).digest(), certDer);
  // RFC 5652 5.4: the signature is over the DER of the signed attributes as a SET OF.
  const signature = rsaSign("sha256", der(set(attrs)), signer.privateKey);
  return signedDataDer(forge.pki.certificateFromPem(signer.certificatePem), attrs, signature);
}

/**
 * The CMS ContentInfo FDP writes, field by field, from its three variable parts. The verifier rebuilds
 * it from what it parsed and requires the same bytes, so no unsigned field (a version, an algorithm
 * identifier, an extra certificate or attribute) can be changed in a file that still verifies.
 */
function signedDataDer(cert: forge.pki.Certificate, attrs: forge.asn1.Asn1[], signature: Buffer): Buffer {
  const issuerAndSerial = seq([
    forge.pki.distinguishedNameToAsn1(cert.issuer),
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, forge.util.hexToBytes(cert.serialNumber)),
  ]);
  const signerInfo = seq([
    int(1),
    issuerAndSerial,
    sha256AlgId(),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attrs),
    seq([oid(forge.pki.oids.rsaEncryption!), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, "")]),
    octets(signature),
  ]);
  const signedData = seq([
    int(1),
    set([sha256AlgId()]),
    seq([oid(forge.pki.oids.data!)]),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [forge.pki.certificateToAsn1(cert)]),
    set([signerInfo]),
  ]);
  return der(seq([oid(forge.pki.oids.signedData!), asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}

class CadesSigner extends Signer {
  constructor(private readonly signer: PdfSigner) {
    super();
  }

  override async sign(pdf: Buffer): Promise<Buffer> {
    return cmsSignDetached(pdf, this.signer);
  }
}

/**
 * @signpdf's plain placeholder writes a `startxref` one byte before its `xref` keyword; readers
 * recover, `qpdf --check` warns (and the CONTRACT wants it clean). Points it at the keyword.
 */
function fixStartxref(pdf: Buffer): Buffer {
  const text = pdf.toString("latin1");
  const at = text.lastIndexOf("startxref");
  const m = /^startxref\s+(\d+)\s+%%EOF\s*$/.exec(text.slice(at));
  if (at === -1 || !m) throw new Error("PDF signature: no startxref at the end of the placeholder's update");
  const xref = text.indexOf("xref", Number(m[1]));
  if (xref === Number(m[1])) return pdf;
  if (xref === -1 || xref > Number(m[1]) + 2) throw new Error("PDF signature: the placeholder's startxref does not point at its xref");
  return Buffer.concat([pdf.subarray(0, at), Buffer.from(`startxref\n${xref}\n%%EOF\n`, "latin1")]);
}

/** Signs a rendered PDF: the whole file as it is, plus the signature field, at `signingTime` (the dictionary's /M). */
export async function signPdf(pdf: Buffer, signer: PdfSigner, { signingTime, reason }: { signingTime: Date; reason: string }): Promise<Buffer> {
  const withPlaceholder = plainAddPlaceholder({
    pdfBuffer: pdf,
    reason,
    contactInfo: "",
    name: "FDP - Fleet Data Products",
    location: "",
    signingTime,
    signatureLength: SIGNATURE_BYTES,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
  });
  return signpdf.sign(fixStartxref(withPlaceholder), new CadesSigner(signer), signingTime);
}

type PdfSignatureCheck = { ok: true; certificate_sha256: string; signed_at: string | null } | { ok: false; reason: string };

/** The one signature's /ByteRange and /Contents, or why the file is not a document FDP signed. */
function locateSignature(pdf: Buffer): { range: [number, number, number, number]; cms: Buffer } | { reason: string } {
  const text = pdf.toString("latin1");
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length === 0) return { reason: "no PDF signature in this file" };
  if (ranges.length > 1) return { reason: "more than one PDF signature: not a document as FDP issued it" };
  const range = ranges[0]!.slice(1, 5).map(Number) as [number, number, number, number];
  const [start, firstLength, second, secondLength] = range;
  // The whole file but the /Contents value: from byte 0, to the last byte (an appended update is not covered).
  if (start !== 0 || second + secondLength !== pdf.length || second <= firstLength) {
    return { reason: "the signature does not cover the whole file (bytes were added or the byte range is not the document's)" };
  }
  const gap = text.slice(firstLength, second);
  // Lowercase, as FDP writes it: an upper-cased digit decodes to the same bytes, but it is a changed byte.
  const hex = /^<((?:[0-9a-f]{2})*)>$/.exec(gap);
  if (!hex) return { reason: "malformed signature contents" };
  // The whole placeholder: the CMS, then zero padding (checked after parsing: a signature may end in 00).
  return { range, cms: Buffer.from(hex[1]!, "hex") };
}

interface ParsedCms {
  certificateDer: Buffer;
  signedAttributes: forge.asn1.Asn1[];
  signature: Buffer;
  digestOid: string;
}

function parseCms(placeholder: Buffer): ParsedCms & { der: Buffer } {
  const buffer = forge.util.createBuffer(placeholder.toString("binary"));
  // Parse one DER value from the start; what follows must be the placeholder's zero padding only.
  const contentInfo = asn1.fromDer(buffer, { strict: true, parseAllBytes: false } as unknown as boolean);
  const padding = buffer.bytes();
  if (!/^\0*$/.test(padding)) throw new Error("bytes after the signature other than zero padding");
  const cms = placeholder.subarray(0, placeholder.length - padding.length);
  const ci = contentInfo.value as forge.asn1.Asn1[];
  if (asn1.derToOid(ci[0]!.value as string) !== forge.pki.oids.signedData) throw new Error("not a CMS SignedData");
  const signedData = (ci[1]!.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
  // In a context-specific tag, `type` is the tag number ([0] here), not a member of the universal Type enum
  // node-forge types it with.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison
  const certs = signedData.find((x) => x.tagClass === asn1.Class.CONTEXT_SPECIFIC && x.type === 0);
  if (!certs || (certs.value as forge.asn1.Asn1[]).length !== 1) throw new Error("expected exactly one certificate in the signature");
  const signerInfos = signedData[signedData.length - 1]!.value as forge.asn1.Asn1[];
  if (signerInfos.length !== 1) throw new Error("expected exactly one signer");
  const si = signerInfos[0]!.value as forge.asn1.Asn1[];
  const digestOid = asn1.derToOid((si[2]!.value as forge.asn1.Asn1[])[0]!.value as string);
  // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- the tag number [0], as above
  const attrs = si.find((x) => x.tagClass === asn1.Class.CONTEXT_SPECIFIC && x.type === 0);
  if (!attrs) throw new Error("no signed attributes");
  const signature = si.find((x) => x.tagClass === asn1.Class.UNIVERSAL && x.type === asn1.Type.OCTETSTRING);
  if (!signature) throw new Error("no signature value");
  const certificate = (certs.value as forge.asn1.Asn1[])[0]!;
  const parsed = {
    certificateDer: Buffer.from(asn1.toDer(certificate).getBytes(), "binary"),
    signedAttributes: attrs.value as forge.asn1.Asn1[],
    signature: Buffer.from(signature.value as string, "binary"),
    digestOid,
  };
  if (!signedDataDer(forge.pki.certificateFromAsn1(certificate), parsed.signedAttributes, parsed.signature).equals(cms)) {
    throw new Error("the signature is not in the form FDP writes (an unsigned field was changed)");
  }
  return { ...parsed, der: cms };
}

function attribute(attrs: forge.asn1.Asn1[], oid: string): forge.asn1.Asn1 | undefined {
  for (const a of attrs) {
    const [type, values] = a.value as forge.asn1.Asn1[];
    if (asn1.derToOid(type!.value as string) === oid) return (values!.value as forge.asn1.Asn1[])[0];
  }
  return undefined;
}

/**
 * Checks the PDF signature cryptographically (not who signed: the caller compares
 * `certificate_sha256` with the published signing certificates): one signature over the whole file,
 * its message digest equal to the SHA-256 of the signed bytes, the RSA signature over the signed
 * attributes valid under the embedded certificate, and that certificate bound by signing-certificate-v2.
 */
export function verifyPdfSignature(pdf: Buffer): PdfSignatureCheck {
  if (pdf.subarray(0, 5).toString("latin1") !== "%PDF-") return { ok: false, reason: "not a PDF file" };
  const located = locateSignature(pdf);
  if ("reason" in located) return { ok: false, reason: located.reason };
  let cms: ParsedCms;
  try {
    cms = parseCms(located.cms);
  } catch (err) {
    return { ok: false, reason: `malformed signature: ${(err as Error).message}` };
  }
  if (cms.digestOid !== forge.pki.oids.sha256) return { ok: false, reason: "the signature's digest is not SHA-256" };
  const [s0, l0, s1, l1] = located.range;
  const digest = createHash("sha256")
    .update(pdf.subarray(s0, s0 + l0))
    .update(pdf.subarray(s1, s1 + l1))
    .digest();
  const messageDigest = attribute(cms.signedAttributes, forge.pki.oids.messageDigest!);
  if (!messageDigest || !Buffer.from(messageDigest.value as string, "binary").equals(digest)) {
    return { ok: false, reason: "digest mismatch: the file was changed after it was signed" };
  }
  const essV2 = attribute(cms.signedAttributes, OID_SIGNING_CERTIFICATE_V2);
  const certHash = essV2 ? Buffer.from(asn1.toDer(essV2).getBytes(), "binary") : null;
  const expectedEss = Buffer.from(asn1.toDer(signingCertificateV2(cms.certificateDer)).getBytes(), "binary");
  if (!certHash || !certHash.equals(expectedEss)) return { ok: false, reason: "the signing certificate is not bound to the signature (signing-certificate-v2)" };
  // RFC 5652 5.4: the signature is over the DER of the signed attributes as a SET OF (tag 0x31).
  const signedBytes = Buffer.from(asn1.toDer(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, cms.signedAttributes)).getBytes(), "binary");
  let publicKey: KeyObject;
  try {
    publicKey = new X509Certificate(cms.certificateDer).publicKey;
  } catch {
    return { ok: false, reason: "malformed signing certificate" };
  }
  if (!rsaVerify("sha256", signedBytes, publicKey, cms.signature)) return { ok: false, reason: "the signature does not verify under its certificate" };
  const m = /\/M\s*\(D:(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z\)/.exec(pdf.toString("latin1"));
  return {
    ok: true,
    certificate_sha256: certificateFingerprint(cms.certificateDer),
    signed_at: m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : null,
  };
}
