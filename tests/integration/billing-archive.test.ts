import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  billingYearRefusal,
  verifyBillingArchive,
  writeBillingArchive,
} from "~/features/billing/billing-archive.server";
import { issueCorrectiveInvoice, issueSaleInvoice } from "~/features/billing/invoices.server";
import {
  BackupRefused,
  readBackupFile,
  writeBackupFile,
} from "~/platform/backup/backup-file.server";
import {
  startEmbeddedBackups,
  type EmbeddedBackups,
} from "~/platform/backup/embedded-backup.server";
import { invoices, payments, verifactuRecords } from "~/platform/db/schema";
import { insertPurchase } from "../support/purchases";
import { schemaProblems } from "../support/aeat-schema";
import { setupTestDatabase } from "../support/test-database";

/**
 * `npm run billing:archive` (decision 053): a closed year's invoices, their purchases, payments
 * and VERI*FACTU records in one checksummed file, exactly that year and nothing else; a file cut
 * short, altered, or whose records no longer hash is refused; an open year and bad arguments are
 * refused before anything is read. The command runs as a separate process, on the embedded
 * database by asking the running server for a copy over DATA_DIR's socket, as the operator would.
 */
const database = setupTestDatabase();
const out = mkdtempSync(path.join(tmpdir(), "billing-archive-"));
const NOW = new Date("2026-11-26T10:00:00Z");

/** A paid sale issued at `issuedAt`, with its payment, invoice and billing record. */
async function sale(issuedAt: string, price = 14_900) {
  const purchase = await insertPurchase(database.db, {
    userId: null,
    price,
    status: "completed",
    checkoutSessionId: `cs_test_${randomUUID()}`,
  });
  await database.db.insert(payments).values({
    purchaseId: purchase.id,
    customerEmail: "archivo@example.com",
    serviceName: purchase.serviceName,
    amount: price,
    status: "completed",
    createdAt: new Date(issuedAt),
  });
  await database.db.transaction((tx) =>
    issueSaleInvoice(tx, {
      purchaseId: purchase.id,
      userId: null,
      serviceName: purchase.serviceName,
      customerEmail: "archivo@example.com",
      amountCents: price,
      currency: "EUR",
      issuedAt: new Date(issuedAt),
    }),
  );
  return purchase.id;
}

let archive: string;

beforeAll(async () => {
  const early = await sale("2024-06-01T10:00:00Z");
  await sale("2024-12-31T22:30:00Z"); // 23:30 on 31 December in Madrid: still 2024
  await sale("2024-12-31T23:30:00Z", 4_900); // 00:30 on 1 January in Madrid: 2025
  const refunded = await sale("2025-05-20T09:00:00Z", 44_900);
  await sale("2025-12-31T22:59:00Z");
  // 2025's corrective invoices: one of a 2024 sale, one of a 2025 sale.
  await database.db.transaction((tx) =>
    issueCorrectiveInvoice(tx, {
      purchaseId: early,
      reason: "Devolución",
      issuedAt: new Date("2025-02-01T10:00:00Z"),
    }),
  );
  await database.db.transaction((tx) =>
    issueCorrectiveInvoice(tx, {
      purchaseId: refunded,
      reason: "Devolución",
      issuedAt: new Date("2025-06-01T10:00:00Z"),
    }),
  );
  await sale("2026-01-02T10:00:00Z");
  archive = (await writeBillingArchive(database.db, 2025, out, NOW)).file;
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

async function parts(file: string) {
  const { manifest, members } = await readBackupFile(file);
  const json = <T>(name: string) => JSON.parse(members.get(name)!.toString("utf8")) as T[];
  return { manifest, members, json };
}

describe("the billing archive of a closed year", () => {
  it("holds exactly that year's invoices, their purchases, payments and records, and nothing else", async () => {
    const expected = await database.db.select().from(invoices).where(eq(invoices.year, 2025));
    expect(expected.map((invoice) => invoice.number).sort()).toEqual([
      "F2025-000001",
      "F2025-000002",
      "F2025-000003",
      "R2025-000001",
      "R2025-000002",
    ]);
    const { manifest, members, json } = await parts(archive);
    expect(path.basename(archive)).toBe("vertice-billing-2025-2026-11-26T10-00-00Z.tar.gz");
    expect(manifest.kind).toBe("billing");
    expect(manifest.about.year).toBe(2025);

    const archived = json<{ number: string; purchaseId: string }>("invoices.json");
    expect(archived.map((invoice) => invoice.number)).toEqual(
      expected.map((invoice) => invoice.number).sort(),
    );
    const purchaseIds = [...new Set(expected.map((invoice) => invoice.purchaseId))].sort();
    expect(json<{ id: string }>("purchases.json").map((p) => p.id)).toEqual(purchaseIds);
    expect(
      json<{ purchaseId: string }>("payments.json")
        .map((p) => p.purchaseId)
        .sort(),
    ).toEqual(purchaseIds);

    const records = await database.db
      .select({ id: verifactuRecords.id, number: verifactuRecords.invoiceNumber })
      .from(verifactuRecords)
      .where(
        inArray(
          verifactuRecords.invoiceId,
          expected.map((invoice) => invoice.id),
        ),
      );
    expect(records).toHaveLength(5);
    const archivedRecords = json<{ id: number; invoiceNumber: string }>("verifactu-records.json");
    expect(archivedRecords.map((r) => r.id)).toEqual(
      records.map((r) => r.id).sort((a, b) => a - b),
    );
    expect(archivedRecords.every((r) => r.invoiceNumber.includes("2025-"))).toBe(true);
    expect(json<{ recordId: number }>("verifactu-deliveries.json")).toHaveLength(5);

    const book = members.get("libro-facturas-expedidas-2025-01-01-a-2025-12-31.csv")!.toString();
    const lines = book.trim().split("\r\n");
    // AEAT's two header rows, then one line per invoice: its series and number in K and L.
    expect(lines).toHaveLength(2 + 5);
    expect(
      lines.slice(2).map((line) => {
        const cells = line.split(";");
        return `${cells[10]}-${cells[11]}`;
      }),
    ).toEqual(expected.map((invoice) => invoice.number).sort());
    const xml = members.get("verifactu-2025-001.xml")!.toString();
    // One RegistroFactura per record; F2024 numbers appear only as links and corrected ones.
    expect(xml.match(/<sum:RegistroFactura>/g)).toHaveLength(5);
    expect(xml).not.toContain("F2026-");
    // A document of AEAT's schema, as the records it holds were sent.
    expect(await schemaProblems(xml)).toBe("");

    await expect(verifyBillingArchive(archive)).resolves.toMatchObject({
      year: 2025,
      counts: { invoices: 5, purchases: 4, payments: 4, verifactuRecords: 5 },
    });
  });

  it("refuses a truncated file, a flipped byte and records whose huella no longer matches", async () => {
    const whole = readFileSync(archive);
    const truncated = path.join(out, "truncated.tar.gz");
    writeFileSync(truncated, whole);
    truncateSync(truncated, Math.floor(whole.length / 2));
    await expect(verifyBillingArchive(truncated)).rejects.toThrow(/truncado/);

    const flipped = path.join(out, "flipped.tar.gz");
    const bytes = Buffer.from(whole);
    bytes[Math.floor(bytes.length / 2)]! ^= 0xff;
    writeFileSync(flipped, bytes);
    await expect(verifyBillingArchive(flipped)).rejects.toBeInstanceOf(BackupRefused);

    // A file whose checksums hold (rewritten whole) but one record's amount was changed: the
    // huella recomputed from the record's own values gives it away.
    const { manifest, members } = await readBackupFile(archive);
    const records = JSON.parse(members.get("verifactu-records.json")!.toString()) as {
      importeTotal: string;
    }[];
    records[1]!.importeTotal = "1.00";
    members.set("verifactu-records.json", Buffer.from(JSON.stringify(records)));
    const forged = path.join(out, "forged.tar.gz");
    await writeBackupFile(
      forged,
      "billing",
      [...members].map(([name, data]) => ({ name, data })),
      manifest.about,
    );
    await expect(verifyBillingArchive(forged)).rejects.toThrow(/huella del registro/);

    // An invoice removed from the file, its count fixed up: the numbering shows the gap.
    const gap = JSON.parse(members.get("invoices.json")!.toString()) as { number: string }[];
    const withoutOne = gap.filter((invoice) => invoice.number !== "F2025-000002");
    members.set("verifactu-records.json", Buffer.from(JSON.stringify([])));
    members.set("invoices.json", Buffer.from(JSON.stringify(withoutOne)));
    const holed = path.join(out, "holed.tar.gz");
    await writeBackupFile(
      holed,
      "billing",
      [...members].map(([name, data]) => ({ name, data })),
      manifest.about,
    );
    await expect(verifyBillingArchive(holed)).rejects.toThrow(/serie F de 2025 tiene un hueco/);
  });

  it("refuses the open year and a year without invoices", async () => {
    expect(billingYearRefusal(2026, NOW)).toMatch(/no está cerrado/);
    expect(billingYearRefusal(2025, NOW)).toBeUndefined();
    // 00:30 on 1 January 2026 in Madrid: 2025 has just closed.
    expect(billingYearRefusal(2025, new Date("2025-12-31T23:30:00Z"))).toBeUndefined();
    expect(billingYearRefusal(2025, new Date("2025-12-31T22:30:00Z"))).toMatch(/no está cerrado/);
    await expect(writeBillingArchive(database.db, 2026, out, NOW)).rejects.toThrow(
      /no está cerrado/,
    );
    await expect(writeBillingArchive(database.db, 2023, out, NOW)).rejects.toThrow(
      /no hay facturas de 2023/,
    );
  });
});

describe("npm run billing:archive", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "billing-archive-data-"));
  let server: EmbeddedBackups | undefined;

  beforeAll(async () => {
    // The embedded database is owned by this process, as by a running site: the command must
    // ask for a copy over DATA_DIR's socket. On PostgreSQL it connects with DATABASE_URL.
    const dump = database.handle.dumpDataDir;
    if (dump)
      server = await startEmbeddedBackups({
        dump: () => dump(),
        dataDir,
        backupDir: undefined,
        keep: 1,
      });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function run(...args: string[]) {
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    if (database.url) env.DATABASE_URL = database.url;
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ["--import", "tsx", "scripts/billing-archive.ts", ...args],
        { env },
      );
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it("archives a closed year from the running site and verifies it; refuses bad input with a reason", async () => {
    const folder = path.join(out, "cli");
    const made = await run("--year", "2025", "--out", folder);
    expect(made.stderr).toBe("");
    expect(made.code).toBe(0);
    expect(made.stdout).toContain("5 facturas, 4 compras, 4 pagos, 5 registros VERI*FACTU");
    if (server) expect(made.stdout).toContain("copia pedida al servidor en marcha");
    const [file] = readdirSync(folder);
    expect(file).toMatch(/^vertice-billing-2025-.*\.tar\.gz$/);
    const { json } = await parts(path.join(folder, file!));
    expect(json<{ number: string }>("invoices.json")).toHaveLength(5);

    const verified = await run("--verify", path.join(folder, file!));
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain("Archivo de facturación de 2025 correcto");

    const truncated = path.join(out, "cli-truncated.tar.gz");
    writeFileSync(truncated, readFileSync(path.join(folder, file!)).subarray(0, 200));
    const refused = await run("--verify", truncated);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^Archivo de facturación rechazado: el archivo está truncado/);

    // Refused before any database is opened: independent, so asked at once.
    const [open, noOut, nothing, shortYear, mixed] = await Promise.all([
      run("--year", "2026", "--out", folder),
      run("--year", "2025"),
      run(),
      run("--year", "25", "--out", folder),
      run("--verify", truncated, "--year", "2025"),
    ]);
    expect(open.code).toBe(3);
    expect(open.stderr).toMatch(/el año 2026 no está cerrado/);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/^Falta --out/);
    expect(nothing.stderr).toMatch(/^Falta --year/);
    expect(shortYear.stderr).toMatch(/no es válido/);
    expect(mixed.code).toBe(2);
    expect(readdirSync(folder)).toEqual([file]);
    // Each run is a new Node process loading the app's modules: seconds each on a busy machine.
  }, 120_000);
});
