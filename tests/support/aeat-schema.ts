import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

import { altaHash, anulacionHash } from "~/features/verifactu/record-hash.server";
import { NAMESPACES } from "~/features/verifactu/record-xml";
import { childNamed, childrenNamed, parseXml, textOf } from "~/features/verifactu/xml-tree.server";

const run = promisify(execFile);

/** AEAT's schema for a RegFactuSistemaFacturacion document (tests/fixtures/aeat-xsd/SOURCE.md). */
const SCHEMA = path.resolve("tests/fixtures/aeat-xsd/SuministroLR.xsd");

/**
 * What libxml2's xmllint says of `xml` against AEAT's schemas, offline: "" when the document
 * validates, else its complaints.
 */
export async function schemaProblems(xml: string): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), "aeat-xsd-"));
  const file = path.join(folder, "document.xml");
  writeFileSync(file, xml);
  try {
    await run("xmllint", ["--noout", "--nonet", "--schema", SCHEMA, file]);
    return "";
  } catch (error) {
    return (error as { stderr?: string }).stderr || String(error);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** What xmllint says of `xml` as a document: "" when it is well-formed, else its complaints. */
export async function wellFormed(xml: Uint8Array): Promise<string> {
  const folder = mkdtempSync(path.join(tmpdir(), "well-formed-"));
  try {
    const file = path.join(folder, "part.xml");
    writeFileSync(file, xml);
    await run("xmllint", ["--noout", "--nonet", file]);
    return "";
  } catch (error) {
    return (error as { stderr?: string }).stderr || String(error);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** A ZIP's files, by name, as Info-ZIP's unzip extracts them (after its own integrity test). */
export async function unzipped(zip: Uint8Array): Promise<Map<string, Buffer>> {
  const folder = mkdtempSync(path.join(tmpdir(), "unzipped-"));
  try {
    const file = path.join(folder, "archive.zip");
    writeFileSync(file, zip);
    const files = new Map<string, Buffer>();
    if (zip.length === 22) return files;
    await run("unzip", ["-tq", file]);
    const out = path.join(folder, "out");
    await run("unzip", ["-q", file, "-d", out]);
    const names = readdirSync(out, { recursive: true, encoding: "utf8" });
    for (const name of names.sort())
      if (statSync(path.join(out, name)).isFile())
        files.set(name, readFileSync(path.join(out, name)));
    return files;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Each record of an exported document, its huella computed again from its own elements (Orden
 * HAC/1177/2024 art. 13), the one it states, and the previous record's it chains to.
 */
export function huellasOf(xml: string) {
  const { sum, sum1 } = NAMESPACES;
  return childrenNamed(parseXml(xml), sum, "RegistroFactura").map((wrapper) => {
    const record = wrapper.children[0]!;
    const id = childNamed(record, sum1, "IDFactura");
    const chained = childNamed(
      childNamed(record, sum1, "Encadenamiento"),
      sum1,
      "RegistroAnterior",
    );
    const previous = chained ? (textOf(chained, sum1, "Huella") ?? "") : "";
    const generatedAt = textOf(record, sum1, "FechaHoraHusoGenRegistro") ?? "";
    const text = (name: string) => textOf(id, sum1, name) ?? "";
    const recomputed =
      record.name === "RegistroAlta"
        ? altaHash({
            issuerTaxId: text("IDEmisorFactura"),
            invoiceNumber: text("NumSerieFactura"),
            issueDate: text("FechaExpedicionFactura"),
            invoiceType: textOf(record, sum1, "TipoFactura") ?? "",
            cuotaTotal: textOf(record, sum1, "CuotaTotal") ?? "",
            importeTotal: textOf(record, sum1, "ImporteTotal") ?? "",
            previousHash: previous,
            generatedAt,
          })
        : anulacionHash({
            issuerTaxId: text("IDEmisorFacturaAnulada"),
            invoiceNumber: text("NumSerieFacturaAnulada"),
            issueDate: text("FechaExpedicionFacturaAnulada"),
            previousHash: previous,
            generatedAt,
          });
    return { recomputed, stated: textOf(record, sum1, "Huella"), previous };
  });
}
