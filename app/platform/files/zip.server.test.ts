import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { zipStream, type ZipEntry } from "./zip.server";

const run = promisify(execFile);
const workDir = mkdtempSync(path.join(tmpdir(), "zip-test-"));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

async function* listOf(entries: ZipEntry[]) {
  yield* entries;
}

async function written(entries: ZipEntry[]): Promise<string> {
  const file = path.join(workDir, `${entries.length}-${Date.now()}.zip`);
  const bytes = new Uint8Array(await new Response(zipStream(listOf(entries))).arrayBuffer());
  writeFileSync(file, bytes);
  return file;
}

/** Info-ZIP's unzip, the reader of the test: what a person's archive tool would see. */
describe("a ZIP written as a stream", () => {
  it("holds each entry, name and bytes, and passes unzip's own check", async () => {
    const big = Buffer.from("<RegistroFactura/>".repeat(50_000));
    const file = await written([
      { name: "registros-2026-001.xml", data: big, modified: new Date(2026, 11, 7, 9, 30, 12) },
      { name: "léame ñ.txt", data: Buffer.from("Año fiscal 2026\n") },
      { name: "vacío.txt", data: new Uint8Array() },
    ]);
    const { stdout: checked } = await run("unzip", ["-t", file]);
    expect(checked).toContain("No errors detected");
    const { stdout: verbose } = await run("unzip", ["-v", file]);
    expect(verbose).toMatch(/900000\s+Defl:N\s+\d+\s+\d+%\s+2026-12-07 09:30/);
    const out = path.join(workDir, "out");
    await run("unzip", ["-q", "-o", file, "registros-2026-001.xml", "-d", out]);
    expect(readFileSync(path.join(out, "registros-2026-001.xml")).equals(big)).toBe(true);
    const { stdout: small } = await run("unzip", ["-p", file, "*.txt"]);
    expect(small).toBe("Año fiscal 2026\n");
    // Names are UTF-8 and say so (bit 11), as Windows, macOS and Python read them; Debian's
    // unzip prints them in its own code page, so the central directory is read here.
    const bytes = readFileSync(file);
    const names: string[] = [];
    for (
      let at = bytes.indexOf("PK\x01\x02");
      at !== -1;
      at = bytes.indexOf("PK\x01\x02", at + 1)
    ) {
      expect(bytes.readUInt16LE(at + 8) & 0x0800).toBe(0x0800);
      names.push(bytes.toString("utf8", at + 46, at + 46 + bytes.readUInt16LE(at + 28)));
    }
    expect(names).toEqual(["registros-2026-001.xml", "léame ñ.txt", "vacío.txt"]);
  });

  it("is an empty archive, still a ZIP, with no entries", async () => {
    const file = await written([]);
    expect(readFileSync(file)).toHaveLength(22);
    // unzip says so with exit code 1 and no error.
    const listed = await run("unzip", ["-Z", "-1", file]).catch(
      (error: { stderr: string }) => error,
    );
    expect(JSON.stringify(listed)).toMatch(/Empty zipfile|zero files/i);
  });

  it("writes an entry given as chunks as one deflate stream, sizes and CRC after it", async () => {
    const rows = Array.from({ length: 3_000 }, (_, i) => `<row><c><v>${i}</v></c></row>`);
    async function* chunks() {
      for (let start = 0; start < rows.length; start += 1_000)
        yield Buffer.from(rows.slice(start, start + 1_000).join(""));
      yield new Uint8Array();
    }
    const file = await written([
      { name: "antes.txt", data: Buffer.from("primero\n") },
      { name: "xl/worksheets/sheet1.xml", data: chunks() },
      { name: "después.txt", data: Buffer.from("último\n") },
    ]);
    const { stdout: checked } = await run("unzip", ["-t", file]);
    expect(checked).toContain("No errors detected");
    const { stdout: sheet } = await run("unzip", ["-p", file, "xl/worksheets/sheet1.xml"], {
      maxBuffer: 1 << 24,
    });
    expect(sheet).toBe(rows.join(""));
    const { stdout: last } = await run("unzip", ["-p", file, "desp*.txt"]);
    expect(last).toBe("último\n");
    // The streamed entry says its sizes come after it (bit 3); the others carry them up front.
    const bytes = readFileSync(file);
    const flags: number[] = [];
    for (let at = bytes.indexOf("PK\x03\x04"); at !== -1; at = bytes.indexOf("PK\x03\x04", at + 1))
      flags.push(bytes.readUInt16LE(at + 6) & 0x0008);
    expect(flags).toEqual([0, 0x0008, 0]);
  });
});
