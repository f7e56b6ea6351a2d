import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staffDesk } from "~/features/accounts/staff-desk.server";
import {
  verifactuAction,
  verifactuExport,
  verifactuPage,
} from "~/features/verifactu/staff-page.server";
import type { Staff } from "~/features/identity/session.server";
import { invoiceBookPage } from "~/features/billing/invoice-book.server";
import { invoicePdf, invoicesOfPurchases } from "~/features/billing/invoices.server";
import { invoiceRecordStates } from "~/features/billing/invoice-record-states.server";
import { staffPaymentPage } from "~/features/payments/after-sale.server";
import { checkChain } from "~/features/verifactu/chain-check.server";
import { cancellationRefusal } from "~/features/verifactu/record-states";
import { registrationDocument } from "~/features/verifactu/record-xml";
import { countRecords, listRecords } from "~/features/verifactu/staff-records.server";
import { resetConfigForTests } from "~/platform/config.server";
import {
  invoices,
  payments,
  purchases,
  staffAuditLog,
  verifactuDeliveries,
  verifactuRecords,
} from "~/platform/db/schema";
import { huellasOf, schemaProblems, unzipped } from "../support/aeat-schema";
import { formPost, signedInCustomer } from "../support/customer-session";
import { type Purchase } from "../support/purchases";
import { paidPurchase } from "../support/paid-purchase";
import { pdfText } from "../support/pdf-text";
import { tamperWithRecord } from "../support/tamper";
import { setupTestDatabase } from "../support/test-database";

/**
 * Issue #23, item 6: the staff's Verifactu page (list, filters, keyset pages, queue), its
 * actions ('Comprobar cadena', 'Anular registro', 'Subsanar y reenviar'), the period's XML and
 * each invoice's record state on the staff's payment page.
 */
const database = setupTestDatabase();
const saved = { ...process.env };

/** The staff member's own session: an anulación asks for a recent one (decision 063). */
let staffCookie = "";

beforeAll(async () => {
  staffCookie = (await signedInCustomer("finanzas-verifactu@example.com")).cookie;
  Object.assign(process.env, {
    STRIPE_SECRET_KEY: "sk_test_verifactu_staff",
    STRIPE_WEBHOOK_SECRET: "whsec_test_verifactu_staff",
    COMPANY_TAX_ID: "B12345674",
  });
  resetConfigForTests();
  for (let index = 0; index < 5; index++) await paidStaffPurchase();
});

afterAll(() => {
  process.env = saved;
  resetConfigForTests();
});

async function paidStaffPurchase(): Promise<Purchase> {
  const { purchase, status } = await paidPurchase(database.db);
  expect(status).toBe(200);
  return purchase;
}

const allRecords = () =>
  database.db.select().from(verifactuRecords).orderBy(asc(verifactuRecords.id));

const today = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(new Date());
const yesterday = () =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Madrid" }).format(
    new Date(Date.now() - 86_400_000),
  );

const pageAt = (query = "") => verifactuPage(new URL(`http://localhost/admin/verifactu${query}`));

/** The finance staff member who acts on the page. */
const financeStaff: Staff = {
  id: "finanzas-1",
  email: "finanzas@example.com",
  emailVerified: true,
  createdAt: new Date().toISOString(),
  role: "finance",
  clientAddress: "192.0.2.70",
  userAgent: "vitest",
};

/** What an action answered: a redirect, or a form answer with its status. */
async function post(fields: Record<string, string>) {
  const request = formPost("/admin/verifactu", fields, staffCookie);
  const answer = await verifactuAction(request, staffDesk(request, financeStaff));
  if (answer instanceof Response) return { status: answer.status, data: undefined };
  const init = (answer as { init?: ResponseInit | null }).init;
  return {
    status: init?.status ?? 200,
    data: (answer as { data: Record<string, unknown> }).data,
  };
}

async function reject(recordId: number) {
  await database.db
    .update(verifactuDeliveries)
    .set({ status: "rejected", errorCode: "1110", errorText: "El NIF no está identificado." })
    .where(eq(verifactuDeliveries.recordId, recordId));
}

describe("the Verifactu page's list", () => {
  it("lists the records newest first, in keyset pages that go both ways", async () => {
    const records = await allRecords();
    const ids = records.map((record) => record.id).reverse();
    const first = await listRecords(database.db, {}, undefined, 2);
    expect(first.rows.map((row) => row.id)).toEqual(ids.slice(0, 2));
    expect(first).toMatchObject({ hasNewer: false, hasOlder: true });
    const second = await listRecords(database.db, {}, { before: ids[1]! }, 2);
    expect(second.rows.map((row) => row.id)).toEqual(ids.slice(2, 4));
    const back = await listRecords(database.db, {}, { after: ids[2]! }, 2);
    expect(back.rows.map((row) => row.id)).toEqual(ids.slice(0, 2));
    expect(back.hasNewer).toBe(false);
    const last = await listRecords(database.db, {}, { oldest: 1 }, 2);
    expect(last.rows.map((row) => row.id)).toEqual([ids.at(-1)]);
    expect(last.hasOlder).toBe(false);
    expect(await countRecords(database.db, {})).toEqual({ total: 5, capped: false });
  });

  it("links each record to its payment and shows the queue", async () => {
    const page = await pageAt();
    expect(page.records.rows).toHaveLength(5);
    const row = page.records.rows[0]!;
    const [payment] = await database.db
      .select({ id: payments.id })
      .from(payments)
      .innerJoin(invoices, eq(invoices.purchaseId, payments.purchaseId))
      .where(eq(invoices.id, row.invoiceId));
    expect(row.paymentId).toBe(payment!.id);
    expect(row).toMatchObject({ kind: "alta", status: "pending", latest: true });
    expect(page.queue.pending).toBe(5);
    expect(page.queue.oldestPendingAt).toBeInstanceOf(Date);
    expect(page.queue.lastAnswer).toBeNull();
    expect(page.sending).toMatchObject({ environment: "pruebas" });
  });

  it("filters by state, kind, period and invoice number", async () => {
    const records = await allRecords();
    await reject(records[1]!.id);
    const rejected = await pageAt("?estado=rejected");
    expect(rejected.records.rows.map((row) => row.id)).toEqual([records[1]!.id]);
    expect(rejected.records.rows[0]).toMatchObject({
      errorCode: "1110",
      errorText: "El NIF no está identificado.",
    });
    expect(rejected.count).toEqual({ total: 1, capped: false });
    expect((await pageAt("?estado=pending")).count.total).toBe(4);
    expect((await pageAt("?tipo=anulacion")).records.rows).toHaveLength(0);
    expect((await pageAt("?tipo=alta")).records.rows).toHaveLength(5);

    const byNumber = await pageAt(`?factura=${records[3]!.invoiceNumber.toLowerCase()}`);
    expect(byNumber.records.rows.map((row) => row.id)).toEqual([records[3]!.id]);
    expect((await pageAt("?factura=F2026")).invalid).toEqual(["factura"]);

    expect((await pageAt(`?desde=${today()}&hasta=${today()}`)).records.rows).toHaveLength(5);
    expect((await pageAt(`?hasta=${yesterday()}`)).records.rows).toHaveLength(0);
    expect((await pageAt(`?desde=${yesterday()}`)).records.rows).toHaveLength(5);
    const badDay = await pageAt("?desde=2026-02-30");
    expect(badDay.invalid).toEqual(["desde"]);
    expect(badDay.records.rows).toHaveLength(5);
  });
});

describe("the Verifactu page's actions", () => {
  it("checks the chain: intact, then the first record changed by hand", async () => {
    const intact = await post({ intent: "check-chain" });
    expect(intact.status).toBe(200);
    expect(intact.data).toMatchObject({
      notice: "chainIntact",
      chain: { checked: 5, firstBreak: undefined },
    });

    const records = await allRecords();
    const victim = records[2]!;
    const tamper = (importeTotal: string) => tamperWithRecord(database.db, victim.id, importeTotal);
    await tamper("1.49");
    const broken = await post({ intent: "check-chain" });
    expect(broken.data).toMatchObject({
      notice: "chainBroken",
      chain: {
        checked: 5,
        firstBreak: { recordId: victim.id, invoiceNumber: victim.invoiceNumber, reason: "hash" },
      },
    });
    await tamper(victim.importeTotal!);
    expect((await post({ intent: "check-chain" })).data).toMatchObject({ notice: "chainIntact" });
  });

  it("never annuls a charged sale or a rectified invoice: neither offered nor accepted", async () => {
    const records = await allRecords();
    const target = records[4]!;
    const reason = "Factura duplicada por un error de sincronización";
    const cancel = (recordId: number) =>
      post({ intent: "cancel-record", recordId: String(recordId), confirm: "yes", reason });
    // A paid sale is corrected with a rectificativa (refund, withdrawal), never annulled.
    const paidRow = (await pageAt()).records.rows.find((row) => row.id === target.id)!;
    expect(paidRow).toMatchObject({ saleCharged: true, hasCorrective: false });
    expect(cancellationRefusal(paidRow)).toBe("saleCharged");
    const charged = await cancel(target.id);
    expect(charged).toMatchObject({ status: 409, data: { errors: [{ code: "saleCharged" }] } });

    // An invoice with a corrective one is not annulled either, whatever its sale.
    const [sale] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, records[3]!.invoiceId));
    await database.db
      .update(purchases)
      .set({ status: "cancelled" })
      .where(eq(purchases.id, sale!.purchaseId));
    const { id: _id, ...copy } = sale!;
    await database.db.insert(invoices).values({
      ...copy,
      number: "R2026-900001",
      series: "R",
      sequence: 900001,
      kind: "corrective",
      invoiceType: "R5",
      correctsInvoiceId: sale!.id,
    });
    const rectified = await cancel(records[3]!.id);
    expect(rectified).toMatchObject({ status: 409, data: { errors: [{ code: "hasCorrective" }] } });
    expect(await allRecords()).toHaveLength(5);
  });

  it("annuls, with its reason, an invoice whose sale was never charged, once", async () => {
    const records = await allRecords();
    const target = records[4]!;
    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, target.invoiceId));
    // As an invoice issued for a sale that did not happen (the purchase never went through).
    await database.db
      .update(purchases)
      .set({ status: "failed" })
      .where(eq(purchases.id, invoice!.purchaseId));
    const row = (await pageAt()).records.rows.find((found) => found.id === target.id)!;
    expect(cancellationRefusal(row)).toBeNull();

    const reason = "Factura emitida para un pago que el banco no llegó a cobrar";
    const post4 = (fields: Record<string, string>) =>
      post({ intent: "cancel-record", recordId: String(target.id), ...fields });
    expect((await post4({ confirm: "yes" })).data).toMatchObject({
      errors: [{ code: "cancellationReason" }],
    });
    expect((await post4({ confirm: "yes", reason: "duplicada" })).status).toBe(400);
    expect((await post4({ confirm: "yes", reason: `${reason}\u0007` })).status).toBe(400);
    expect((await post4({ reason })).data).toMatchObject({
      errors: [{ code: "confirmCancellation" }],
    });
    expect(
      (await post({ intent: "cancel-record", recordId: "abc", confirm: "yes", reason })).status,
    ).toBe(400);
    expect(
      (await post({ intent: "cancel-record", recordId: "999999", confirm: "yes", reason })).status,
    ).toBe(404);
    expect(await allRecords()).toHaveLength(5);

    expect((await post4({ confirm: "yes", reason })).status).toBe(302);
    const after = await allRecords();
    expect(after).toHaveLength(6);
    expect(after.at(-1)).toMatchObject({
      kind: "anulacion",
      invoiceId: target.invoiceId,
      invoiceNumber: target.invoiceNumber,
      previousRecordId: target.id,
    });
    const [audited] = await database.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.action, "verifactu.cancel"));
    expect(audited?.details).toMatchObject({ factura: target.invoiceNumber, motivo: reason });
    expect((await post4({ confirm: "yes", reason })).status).toBe(409);
    // The rejected one (records[1]) is corrected, not cancelled.
    const rejected = await post({
      intent: "cancel-record",
      recordId: String(records[1]!.id),
      confirm: "yes",
      reason,
    });
    expect(rejected.status).toBe(409);

    expect((await pageAt("?tipo=anulacion")).records.rows).toHaveLength(1);
    const cancelledAlta = (await pageAt()).records.rows.find((found) => found.id === target.id);
    expect(cancelledAlta?.latest).toBe(false);

    // ANULADA wherever the invoice shows: its PDF, the customer's list, the staff, the libro.
    const pdf = await pdfText(await invoicePdf(database.db, invoice!));
    expect(pdf).toContain("ANULADA");
    expect(pdf).toMatch(
      /Factura emitida por error y anulada el \d{1,2} \S+ \d{4}: no tiene validez\./,
    );
    const listed = await invoicesOfPurchases([invoice!.purchaseId, records[2]!.invoiceId]);
    expect(listed.get(invoice!.purchaseId)?.sale).toMatchObject({ annulled: true });
    const states = await invoiceRecordStates([invoice!.id, records[2]!.invoiceId]);
    expect(states.get(invoice!.id)?.annulled).toBe(true);
    expect(states.get(records[2]!.invoiceId)?.annulled).toBe(false);
    const book = await invoiceBookPage(database.db, { from: today(), to: today() }, undefined);
    const lines = book.lines.trim().split("\r\n");
    const [serie, numero] = invoice!.number.split("-");
    const annulledLine = lines.find((line) => line.includes(`;${serie};${numero};`))!;
    expect(annulledLine.split(";").at(-1)).toBe("ANULADA: emitida por error.");
    expect(lines.filter((line) => line.includes("ANULADA"))).toHaveLength(1);
  });

  it("corrects a rejected record with a subsanación, once", async () => {
    const records = await allRecords();
    const rejected = records[1]!;
    const correct = (fields: Record<string, string> = {}) =>
      post({
        intent: "correct-record",
        recordId: String(rejected.id),
        description: "Asistencia informática remota",
        ...fields,
      });
    // The description is checked as AEAT checks it; nothing is written when it is refused.
    expect(await correct({ description: " " })).toMatchObject({
      status: 400,
      data: { errors: [{ code: "correctionDescription" }] },
    });
    // A record without a recipient cannot gain one: that would change the invoice's type.
    expect(
      (await correct({ recipientName: "Empresa S.L.", recipientTaxId: "B12345674" })).status,
    ).toBe(409);
    expect(await allRecords()).toHaveLength(records.length);
    const done = await correct();
    expect(done.status).toBe(302);
    const latest = (await allRecords()).at(-1)!;
    expect(latest).toMatchObject({
      kind: "alta",
      invoiceId: rejected.invoiceId,
      description: "Asistencia informática remota",
      correction: "S",
      previousRejection: "X",
    });
    expect((await correct()).status).toBe(409);
    expect((await post({ intent: "nothing" })).status).toBe(400);
    // The subsanación is on the staff audit log, once: the refused second try wrote nothing.
    const audited = await database.db
      .select()
      .from(staffAuditLog)
      .where(eq(staffAuditLog.action, "verifactu.correct"));
    expect(audited).toHaveLength(1);
    expect(audited[0]).toMatchObject({
      actorId: financeStaff.id,
      actorRole: "finance",
      targetId: String(rejected.id),
      details: { registroSubsanacion: latest.id, descripcion: "Asistencia informática remota" },
    });
  });

  it("corrects the recipient AEAT refused, and an invoice accepted with errors", async () => {
    const { purchase } = await paidPurchase(database.db, {
      price: 44_900,
      billingName: "Ferreteria Ejemplo",
      billingTaxId: "B12345674",
      billingAddress: "Calle Mayor 1, 28013 Madrid",
    });
    const [invoice] = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.purchaseId, purchase.id));
    const first = (await allRecords()).find((record) => record.invoiceId === invoice!.id)!;
    expect(first.recipient).toEqual({ name: "Ferreteria Ejemplo", taxId: "B12345674" });
    await database.db
      .update(verifactuDeliveries)
      .set({
        status: "rejected",
        errorCode: "4109",
        errorText: "El NIF no está identificado en el censo de la AEAT.",
      })
      .where(eq(verifactuDeliveries.recordId, first.id));
    const listed = (await pageAt(`?factura=${invoice!.number}`)).records.rows[0]!;
    expect(listed).toMatchObject({ recipient: first.recipient, latest: true });

    const correct = (recordId: number, fields: Record<string, string>) =>
      post({ intent: "correct-record", recordId: String(recordId), ...fields });
    const data = {
      recipientName: "  FERRETERIA EJEMPLO SL ",
      recipientTaxId: "a-58818501",
      description: "Ciberseguridad",
    };
    expect(await correct(first.id, { ...data, recipientTaxId: "A58818502" })).toMatchObject({
      status: 400,
      data: { errors: [{ code: "correctionRecipientTaxId" }] },
    });
    expect(await correct(first.id, { ...data, recipientName: "x".repeat(121) })).toMatchObject({
      status: 400,
      data: { errors: [{ code: "correctionRecipientName" }] },
    });
    expect((await correct(first.id, data)).status).toBe(302);
    const fixed = (await allRecords()).at(-1)!;
    expect(fixed).toMatchObject({
      invoiceId: invoice!.id,
      invoiceType: "F1",
      recipient: { name: "FERRETERIA EJEMPLO SL", taxId: "A58818501" },
      correction: "S",
      previousRejection: "X",
    });
    expect(await schemaProblems(registrationDocument([fixed]))).toBe("");

    // AEAT accepted the corrected one with errors: a second subsanación, without RechazoPrevio.
    await database.db
      .update(verifactuDeliveries)
      .set({ status: "accepted_with_errors", errorCode: "2011", errorText: "Aviso de la AEAT." })
      .where(eq(verifactuDeliveries.recordId, fixed.id));
    expect((await correct(first.id, data)).status).toBe(409); // the first is corrected already
    expect(
      (await correct(fixed.id, { ...data, description: "Ciberseguridad (auditoría)" })).status,
    ).toBe(302);
    const again = (await allRecords()).at(-1)!;
    expect(again).toMatchObject({
      invoiceId: invoice!.id,
      description: "Ciberseguridad (auditoría)",
      correction: "S",
      previousRejection: null,
    });
    expect(await schemaProblems(registrationDocument([again]))).toBe("");
    // Each generated record chains on the one before, and every hash still checks.
    expect((await checkChain(database.db)).firstBreak).toBeUndefined();
  });
});

describe("the staff's payment page", () => {
  it("shows each invoice's record state with AEAT's text", async () => {
    const purchase = await paidStaffPurchase();
    const [payment] = await database.db
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.purchaseId, purchase.id));
    const pending = await staffPaymentPage(payment!.id);
    expect(pending.invoices[0]!.recordState).toMatchObject({
      status: "pending",
      label: "Pendiente de envío",
      aeatText: null,
    });
    const [record] = (await allRecords()).slice(-1);
    await reject(record!.id);
    const refused = await staffPaymentPage(payment!.id);
    expect(refused.invoices[0]!.recordState).toEqual({
      status: "rejected",
      label: "Rechazado",
      aeatText: "1110: El NIF no está identificado.",
      annulled: false,
    });
  });
});

describe("the records' XML export", () => {
  const download = async (query: string) => {
    const response = verifactuExport(new URL(`http://localhost/admin/verifactu/exportar${query}`));
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  it("gives the period's records as AEAT's schema documents, zipped, that validate", async () => {
    const records = await allRecords();
    // Altas, the subsanación of a rejected one and an anulación: every kind the site writes.
    expect(new Set(records.map((record) => `${record.kind}${record.correction ?? ""}`))).toEqual(
      new Set(["alta", "altaS", "anulacion"]),
    );
    const { response, bytes } = await download(`?desde=${today()}&hasta=${today()}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/zip");
    const base = `registros-verifactu-${today()}-a-${today()}`;
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="${base}.zip"; filename*=UTF-8''${base}.zip`,
    );
    const files = await unzipped(bytes);
    expect([...files.keys()]).toEqual([`${base}-001.xml`]);
    const xml = files.get(`${base}-001.xml`)!.toString();
    expect(xml).toBe(registrationDocument(records));
    expect(await schemaProblems(xml)).toBe("");
    for (const record of records)
      expect(xml).toContain(`<sum1:Huella>${record.hash}</sum1:Huella>`);
    expect(xml.match(/<sum:RegistroFactura>/g)).toHaveLength(records.length);
    // Every huella recomputes from the exported XML alone, and each names the one before it.
    const recomputed = huellasOf(xml);
    expect(recomputed.map((record) => record.recomputed)).toEqual(records.map((r) => r.hash));
    expect(recomputed.map((record) => record.stated)).toEqual(records.map((r) => r.hash));
    recomputed.forEach((record, index) =>
      expect(record.previous).toBe(index === 0 ? "" : recomputed[index - 1]!.stated),
    );
  });

  it("leaves out records of other days, and refuses a period it cannot read", async () => {
    const { response, bytes } = await download(`?desde=${yesterday()}&hasta=${yesterday()}`);
    expect(response.status).toBe(200);
    expect((await unzipped(bytes)).size).toBe(0);
    for (const query of [
      "",
      "?desde=2026-01-01",
      "?desde=2026-13-01&hasta=2026-12-31",
      `?desde=${today()}&hasta=${yesterday()}`,
    ]) {
      const { response: refused, bytes: refusal } = await download(query);
      expect(refused.status).toBe(400);
      expect(new TextDecoder().decode(refusal)).toContain("Indica el periodo");
    }
  });
});
