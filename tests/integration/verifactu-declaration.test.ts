import { afterEach, describe, expect, it } from "vitest";
import { declaration } from "~/features/verifactu/declaration.server";
import { SYSTEM_ID, SYSTEM_NAME, SYSTEM_VERSION } from "~/features/verifactu/system";
import { resetConfigForTests } from "~/platform/config.server";

/**
 * Issue 37, the go-live check: the declaración responsable (Orden HAC/1177/2024 art. 15) is the
 * installation's own, filled from its configuration, with the day and place it was subscribed.
 */
const saved = { ...process.env };

afterEach(() => {
  process.env = { ...saved };
  resetConfigForTests();
});

function configured(env: Record<string, string | undefined>) {
  Object.assign(process.env, env);
  resetConfigForTests();
  return declaration();
}

describe("the declaración responsable", () => {
  it("names the configured company, the system and the day and place it was subscribed", () => {
    const { text, gaps } = configured({
      COMPANY_LEGAL_NAME: "Servicios Digitales Norte S.L.",
      COMPANY_TAX_ID: "b-12345674",
      COMPANY_ADDRESS: "Gran Vía 10, 48001 Bilbao, España",
      CONTACT_EMAIL: "facturacion@norte.example",
      SITE_URL: "https://norte.example",
      VERIFACTU_DECLARATION_DATE: "2026-12-15",
      VERIFACTU_DECLARATION_PLACE: "Bilbao, España",
    });
    expect(gaps).toEqual([]);
    expect(text).not.toContain("{{");
    expect(text).not.toContain("[pendiente");
    for (const expected of [
      SYSTEM_NAME,
      `\n${SYSTEM_ID}\n`,
      `\n${SYSTEM_VERSION}\n`,
      "Servicios Digitales Norte S.L.",
      "\nB12345674\n",
      "Gran Vía 10, 48001 Bilbao, España",
      "\n15-12-2026\n",
      "\nBilbao, España\n",
      "facturacion@norte.example",
      "https://norte.example/aviso-legal",
    ])
      expect(text).toContain(expected);
    // Neither the example company nor its placeholder NIF is left anywhere in it.
    expect(text).not.toMatch(/B00000000|Vértice Digital Servicios/);
  });

  it("says what is missing until the date and place are configured", () => {
    const { text, gaps } = configured({
      VERIFACTU_DECLARATION_DATE: "",
      VERIFACTU_DECLARATION_PLACE: "",
    });
    expect(gaps).toEqual(["signedOn", "place"]);
    expect(text).toContain("[pendiente: la fecha en que se suscribe, VERIFACTU_DECLARATION_DATE]");
    expect(text).toContain("[pendiente: el lugar en que se suscribe, VERIFACTU_DECLARATION_PLACE]");
  });

  it("refuses a subscription date that is not a calendar date", () => {
    expect(() => configured({ VERIFACTU_DECLARATION_DATE: "15/12/2026" })).toThrow(
      /VERIFACTU_DECLARATION_DATE/,
    );
  });
});
