import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

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
    for (const name of readdirSync(out).sort()) files.set(name, readFileSync(path.join(out, name)));
    return files;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
