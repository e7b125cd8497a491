/**
 * Base64 as Go's `encoding/base64.StdEncoding` reads and writes it, which every part of a passphrase
 * ciphertext and salt is in (sdk/go/common/resource/config/crypt.go, pkg/secrets/passphrase/manager.go):
 * the standard alphabet, `=` padding required, and `\r` and `\n` skipped wherever they are (Go's
 * decoder ignores them). `atob` alone is laxer (it takes a missing padding and spaces), so what Go
 * refuses is refused here first.
 */

const STD_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes of `text`, or undefined where Go's `StdEncoding.DecodeString` fails ("illegal base64 data"). */
export function decodeStdBase64(text: string): Uint8Array | undefined {
  const stripped = text.replace(/[\r\n]/g, '');
  if (!STD_BASE64.test(stripped)) return undefined;
  const binary = atob(stripped);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** `StdEncoding.EncodeToString`: padded, no line breaks. */
export function encodeStdBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
