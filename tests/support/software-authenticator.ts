import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

/**
 * A WebAuthn authenticator in a few lines, for tests that need what a browser's virtual one
 * cannot give: an assertion whose user was *not* verified (Chromium's waits for a verification
 * instead of answering without one). One ES256 key; assertions as WebAuthn Level 2 §6.1 and
 * §7.2 describe them (authenticator data, client data, signature over both).
 */
export type SoftwarePasskey = {
  credentialId: string;
  /** The COSE public key, base64, as Better Auth's passkey plugin stores it. */
  publicKey: string;
  assert: (input: {
    challenge: string;
    origin: string;
    rpId: string;
    userVerified: boolean;
    counter: number;
  }) => Record<string, unknown>;
};

const base64url = (bytes: Buffer) => bytes.toString("base64url");

/** The EC2 P-256 public key as a COSE_Key map (RFC 9052 §7, RFC 9053 §2.1), CBOR by hand. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  return Buffer.concat([
    Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]),
    x,
    Buffer.from([0x22, 0x58, 0x20]),
    y,
  ]);
}

export function softwarePasskey(): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const credentialId = base64url(randomBytes(32));
  return {
    credentialId,
    publicKey: coseKey(publicKey).toString("base64"),
    assert({ challenge, origin, rpId, userVerified, counter }) {
      const flags = 0x01 | (userVerified ? 0x04 : 0);
      const count = Buffer.alloc(4);
      count.writeUInt32BE(counter);
      const authenticatorData = Buffer.concat([
        createHash("sha256").update(rpId).digest(),
        Buffer.from([flags]),
        count,
      ]);
      const clientDataJSON = Buffer.from(
        JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }),
      );
      const signed = Buffer.concat([
        authenticatorData,
        createHash("sha256").update(clientDataJSON).digest(),
      ]);
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        clientExtensionResults: {},
        response: {
          authenticatorData: base64url(authenticatorData),
          clientDataJSON: base64url(clientDataJSON),
          signature: base64url(sign("sha256", signed, privateKey)),
        },
      };
    },
  };
}
