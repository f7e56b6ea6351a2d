import { describe, expect, it } from "vitest";
import { categoryLabel, ticketCategories } from "./ticket-rules";

describe("ticket categories as people read them", () => {
  it("show the codes with spaces and their Spanish accents", () => {
    expect(ticketCategories.map(categoryLabel)).toEqual([
      "Consulta técnica",
      "Facturación",
      "Incidencia servicio",
      "Solicitud cambio",
      "Otro",
    ]);
  });

  it("show a code the list no longer has with spaces, not as a blank", () => {
    expect(categoryLabel("peticion_antigua")).toBe("Peticion antigua");
  });
});
