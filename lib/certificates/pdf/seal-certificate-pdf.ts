import { verify as ed25519Verify } from "node:crypto";
import {
  CERTIFICATE_MARKER,
  SEAL_MARKER,
  SEAL_PLACEHOLDER_DIGITS,
  SEAL_SIGNATURE_HEX_LENGTH,
  indexesOf,
  parseCertificateFields,
} from "./certificate-pdf-metadata";
import { KEY_ID_PATTERN, publicKeyFromJwk, type KeysDocument } from "./keys-document";

/**
 * Byte-level seal of the certificate PDF, in the spirit of a PAdES ByteRange signature but simpler:
 * the signature covers EVERY byte of the file, with only the 128 hex digits of the seal itself read as
 * `0`. The digits live inside the Info dictionary's Keywords string (`fdp-pdf-seal:v1:<kid>:<hex>`),
 * written in place at the same length, so no xref offset moves and the file stays a valid PDF.
 *
 * Consequences: one changed byte anywhere (content, metadata, xref, the signature, the key id) or one
 * appended byte (an incremental update) fails verification; the check needs only the PDF and the
 * published keys file — no PDF parser: `openssl pkeyutl -verify -rawin` can do it by hand
 * (docs/certificates.md).
 */

/** Signs with the private key of `kid` and returns the 64-byte Ed25519 signature. */
export type SealSigner = { kid: string; sign: (bytes: Buffer) => Buffer };

interface SealLocation {
  kid: string;
  /** Offset of the first hex digit of the signature. */
  digitsAt: number;
  hex: string;
}

type Located = { ok: true; seal: SealLocation } | { ok: false; reason: string };

const SEAL_AT = new RegExp(`^${SEAL_MARKER}([A-Za-z0-9._-]{1,64}):([0-9a-f]{${SEAL_SIGNATURE_HEX_LENGTH}})\\)`);

/** latin1 maps every byte to one UTF-16 unit, so string offsets are byte offsets. */
function locateSeal(pdf: Buffer): Located {
  const text = pdf.toString("latin1");
  const at = indexesOf(text, SEAL_MARKER);
  if (at.length === 0) return { ok: false, reason: "no FDP seal in this PDF" };
  if (at.length > 1) return { ok: false, reason: "malformed: more than one FDP seal" };
  // The seal is the end of the Keywords literal string, hence the closing parenthesis.
  const m = SEAL_AT.exec(text.slice(at[0]!, at[0]! + SEAL_MARKER.length + 64 + 1 + SEAL_SIGNATURE_HEX_LENGTH + 1));
  if (!m) return { ok: false, reason: "malformed: the FDP seal is not <kid>:<128 lowercase hex digits>" };
  const kid = m[1]!;
  return { ok: true, seal: { kid, digitsAt: at[0]! + SEAL_MARKER.length + kid.length + 1, hex: m[2]! } };
}

/** The signed message: the file with the seal's digits zeroed. */
function sealedMessage(pdf: Buffer, digitsAt: number): Buffer {
  const message = Buffer.from(pdf);
  message.write(SEAL_PLACEHOLDER_DIGITS, digitsAt, "latin1");
  return message;
}

/**
 * Writes the seal into a PDF rendered with the placeholder (renderCertificatePdf). Refuses a PDF that
 * is already sealed or whose placeholder names another key.
 */
export function sealCertificatePdf(unsignedPdf: Buffer, signer: SealSigner): Buffer {
  if (!KEY_ID_PATTERN.test(signer.kid)) throw new Error(`seal: invalid key id ${JSON.stringify(signer.kid)}`);
  const located = locateSeal(unsignedPdf);
  if (!located.ok) throw new Error(`seal: ${located.reason}`);
  const { seal } = located;
  if (seal.hex !== SEAL_PLACEHOLDER_DIGITS) throw new Error("seal: this PDF is already sealed");
  if (seal.kid !== signer.kid) {
    throw new Error(`seal: the PDF was rendered for key ${seal.kid}, not ${signer.kid}`);
  }
  const signature = signer.sign(sealedMessage(unsignedPdf, seal.digitsAt));
  if (!Buffer.isBuffer(signature) || signature.length !== SEAL_SIGNATURE_HEX_LENGTH / 2) {
    throw new Error("seal: the signer must return a 64-byte Ed25519 signature");
  }
  const sealed = Buffer.from(unsignedPdf);
  sealed.write(signature.toString("hex"), seal.digitsAt, "latin1");
  return sealed;
}

export type CertificatePdfVerification =
  | {
      ok: true;
      certificate_number: string;
      verify_hash: string;
      /** The key that sealed the file. */
      kid: string;
      key_status: "active" | "retired";
      content_signature: { kid: string; alg: "Ed25519"; value: string };
    }
  | { ok: false; reason: string; certificate_number?: string };

/**
 * Checks that `pdf` is, byte for byte, a certificate sealed by one of the published keys. A retired key
 * still verifies what it sealed (rotation keeps old keys published). The certificate fields are read
 * from the sealed metadata, so on success they are authentic too; on failure `certificate_number` is
 * only a hint (it comes from an unauthenticated file).
 */
export function verifyCertificatePdf(pdf: Buffer, keys: KeysDocument): CertificatePdfVerification {
  const text = pdf.toString("latin1");
  const markers = indexesOf(text, CERTIFICATE_MARKER);
  const fields = markers.length === 1 ? parseCertificateFields(text.slice(markers[0]!, markers[0]! + 1024)) : null;
  const hint = fields ? { certificate_number: fields.certificate_number } : {};

  if (!text.startsWith("%PDF-")) return { ok: false, reason: "malformed: not a PDF file", ...hint };
  const located = locateSeal(pdf);
  if (!located.ok) return { ok: false, reason: located.reason, ...hint };
  const { seal } = located;
  if (!fields) return { ok: false, reason: "malformed: the FDP certificate metadata is missing or unreadable", ...hint };

  if (seal.hex === SEAL_PLACEHOLDER_DIGITS) return { ok: false, reason: "no FDP seal: the PDF was never sealed (placeholder only)", ...hint };

  const key = keys.keys.find((k) => k.kid === seal.kid);
  if (!key) return { ok: false, reason: `unknown key id ${seal.kid}: not in the published FDP keys`, ...hint };

  let authentic: boolean;
  try {
    authentic = ed25519Verify(null, sealedMessage(pdf, seal.digitsAt), publicKeyFromJwk(key), Buffer.from(seal.hex, "hex"));
  } catch {
    return { ok: false, reason: `malformed: published key ${seal.kid} is not a usable Ed25519 key`, ...hint };
  }
  if (!authentic) {
    return { ok: false, reason: "signature mismatch: the PDF was altered after FDP sealed it, or was not sealed by FDP", ...hint };
  }
  return {
    ok: true,
    certificate_number: fields.certificate_number,
    verify_hash: fields.verify_hash,
    kid: seal.kid,
    key_status: key.status,
    content_signature: fields.content_signature,
  };
}
