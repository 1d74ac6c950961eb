/**
 * An imported public key, opaque outside the platform module that made it: a `KeyObject` on Node,
 * a `CryptoKey` on Web Crypto. Declared without either, so the core's published types need neither
 * `@types/node` nor the DOM library.
 */
export interface PublicKey {
  readonly type: string;
}
