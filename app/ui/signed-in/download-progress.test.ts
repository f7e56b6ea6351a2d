import { describe, expect, it } from "vitest";
import { csvLineCounter, progressText, readWithProgress } from "./download-progress";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("csvLineCounter", () => {
  it("counts the lines of a CSV, not the line breaks inside quoted cells", () => {
    const counter = csvLineCounter();
    counter.add(bytes('\uFEFFNombre;Mensaje\r\nAna;"Hola,\r\nquería ""saber""\r\nmás"\r\n'));
    counter.add(bytes("Luis;Buenos días\r\n"));
    expect(counter.lines(true)).toBe(3);
  });

  it("reads a quote or a line break split across chunks, and a last line without a break", () => {
    const counter = csvLineCounter();
    for (const piece of ["a;b\r", "\nc;", '"x\n', 'y"\r\nd;e']) counter.add(bytes(piece));
    expect(counter.lines()).toBe(2);
    expect(counter.lines(true)).toBe(3);
  });
});

describe("readWithProgress", () => {
  it("reports the data rows (lines less the header) and the share of X-Total-Rows", async () => {
    const body = "Fecha;Email\r\n" + "1;a@example.com\r\n".repeat(4);
    const response = new Response(body, { headers: { "X-Total-Rows": "4" } });
    const seen: { text: string; fraction: number | null }[] = [];
    const chunks = await readWithProgress(
      response,
      { countRows: true, busyLabel: "Exportando…" },
      ({ text, fraction }) => seen.push({ text, fraction }),
    );
    expect(new TextDecoder().decode(Buffer.concat(chunks))).toBe(body);
    expect(seen.at(-1)).toEqual({ text: "Exportando… 4 filas (100\u00a0%)", fraction: 1 });
  });

  it("writes counts as Spain does", () => {
    expect(progressText("Exportando…", 12345, null)).toBe("Exportando… 12.345 filas");
    expect(progressText("Exportando…", 1, null)).toBe("Exportando… 1 fila");
    expect(progressText("Exportando…", 450, 1000)).toBe("Exportando… 450 filas (45\u00a0%)");
  });
});
