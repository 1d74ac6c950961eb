import type { HeadersLike } from '../authenticator/parse-authorization.js';
import { InvalidSignatureError } from '../errors/invalid-signature-error.js';
import { ecdsaP256DerToRaw } from '../platform/ecdsa-der-signature.js';
import { decodeBase64 } from './decode-base64.js';
import { MAX_KEY_IDENTIFIER_LENGTH } from './import-github-public-keys.js';

/** The header naming the key GitHub signed with (an entry of the key list). */
export const KEY_IDENTIFIER_HEADER = 'Github-Public-Key-Identifier';
/** The header holding the signature: base64 of a DER ECDSA P-256 SHA-256 signature of the raw body. */
export const SIGNATURE_HEADER = 'Github-Public-Key-Signature';

/** A DER P-256 signature is at most 72 bytes, 96 characters of base64: longer headers are not read. */
const MAX_SIGNATURE_LENGTH = 128;
const KEY_IDENTIFIER = new RegExp(`^[\\x21-\\x7e]{1,${MAX_KEY_IDENTIFIER_LENGTH}}$`);

/** What the signature headers of a delivery say, checked for shape. */
export interface SignatureHeaders {
  /** `Github-Public-Key-Identifier`. */
  readonly keyIdentifier: string;
  /** `Github-Public-Key-Signature` as the raw `r || s` (64 bytes). */
  readonly signature: Uint8Array;
}

/** One header's single value; several values (a Node header record's array) count as none. */
function headerOf(headers: HeadersLike, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function') {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (headers as Readonly<Record<string, string | readonly string[] | undefined>>)[name.toLowerCase()];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Reads and checks the shape of GitHub's signature headers, before any key is fetched: a missing
 * header, an identifier that is not 1 to 256 visible ASCII characters, or a signature that is not
 * the base64 of one strict DER ECDSA P-256 signature is an `InvalidSignatureError` (401).
 */
export function readSignatureHeaders(headers: HeadersLike): SignatureHeaders {
  const keyIdentifier = headerOf(headers, KEY_IDENTIFIER_HEADER);
  const signature = headerOf(headers, SIGNATURE_HEADER);
  if (keyIdentifier === undefined || keyIdentifier === '') {
    throw new InvalidSignatureError(`the ${KEY_IDENTIFIER_HEADER} header is missing`);
  }
  if (signature === undefined || signature === '') throw new InvalidSignatureError(`the ${SIGNATURE_HEADER} header is missing`);
  if (!KEY_IDENTIFIER.test(keyIdentifier)) throw new InvalidSignatureError(`the ${KEY_IDENTIFIER_HEADER} header is malformed`);
  const der = signature.length <= MAX_SIGNATURE_LENGTH ? decodeBase64(signature) : undefined;
  const raw = der === undefined ? undefined : ecdsaP256DerToRaw(der);
  if (raw === undefined) {
    throw new InvalidSignatureError(`the ${SIGNATURE_HEADER} header is not the base64 of a DER ECDSA P-256 signature`);
  }
  return { keyIdentifier, signature: raw };
}
