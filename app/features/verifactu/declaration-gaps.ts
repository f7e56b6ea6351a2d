import type { AppConfig } from "~/platform/config.server";

/** What the declaración responsable still lacks before the company can subscribe it. */
export type DeclarationGap = "signedOn" | "place";

/**
 * Apart from declaration.server.ts, whose template is a Vite `?raw` import: the go-live check
 * runs under tsx, outside Vite.
 */
export function declarationGaps({ verifactu }: Pick<AppConfig, "verifactu">): DeclarationGap[] {
  const gaps: DeclarationGap[] = [];
  if (!verifactu.declaration.signedOn) gaps.push("signedOn");
  if (!verifactu.declaration.place) gaps.push("place");
  return gaps;
}
