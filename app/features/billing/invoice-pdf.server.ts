import PDFDocument from "pdfkit";
import { formatPrice } from "~/features/catalogue/services";
import type { invoices } from "~/platform/db/schema";
import { formatDate } from "~/ui/dates";

type Invoice = typeof invoices.$inferSelect;

const TITLES: Record<Invoice["kind"], string> = {
  simplified: "Factura simplificada",
  complete: "Factura",
  corrective: "Factura rectificativa",
};

const euros = (cents: number) => formatPrice(cents, { cents: "always" });

/**
 * An invoice as a PDF (A4, the standard Helvetica, which covers Spanish text and the euro sign):
 * the seller, the customer, the line with base, IVA and total, and for a corrective invoice the
 * invoice it corrects and why. Rendered from the stored row only, so a download years later
 * prints what was issued.
 */
export function renderInvoicePdf(
  invoice: Invoice,
  brandName: string,
  correctedNumber?: string,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: 56,
    info: { Title: `${TITLES[invoice.kind]} ${invoice.number}`, Author: invoice.sellerName },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  doc.font("Helvetica-Bold").fontSize(20).text(brandName);
  doc.moveDown(0.5).fontSize(14).text(`${TITLES[invoice.kind]} ${invoice.number}`);
  doc
    .font("Helvetica")
    .fontSize(10)
    .text(`Fecha de expedición: ${formatDate(invoice.issuedAt, "date")}`);
  if (invoice.kind === "corrective") {
    doc.text(`Rectifica la factura ${correctedNumber ?? ""}`.trim());
    if (invoice.correctionReason) doc.text(`Motivo: ${invoice.correctionReason}`);
  }

  doc.moveDown().font("Helvetica-Bold").text("Emisor");
  doc.font("Helvetica").text(invoice.sellerName);
  doc.text(`NIF: ${invoice.sellerTaxId}`);
  doc.text(invoice.sellerAddress);

  const customer = [
    invoice.customerName,
    invoice.customerTaxId ? `NIF/NIE: ${invoice.customerTaxId}` : undefined,
    invoice.customerAddress,
    invoice.customerEmail,
  ].filter(Boolean);
  if (customer.length > 0) {
    doc.moveDown().font("Helvetica-Bold").text("Cliente");
    doc.font("Helvetica");
    for (const line of customer) doc.text(line!);
  }

  doc.moveDown(1.5).font("Helvetica-Bold").text("Concepto");
  doc.font("Helvetica").text(invoice.description);
  doc.moveDown();
  const rows: [string, string][] = [
    ["Base imponible", euros(invoice.baseAmount)],
    [`IVA (${invoice.vatRate} %)`, euros(invoice.vatAmount)],
    ["Total", euros(invoice.totalAmount)],
  ];
  for (const [label, amount] of rows) {
    const y = doc.y;
    doc.font(label === "Total" ? "Helvetica-Bold" : "Helvetica").text(label, 56, y);
    doc.text(amount, 56, y, { align: "right" });
  }
  if (invoice.kind === "simplified")
    doc.moveDown().fontSize(8).text(`Tipo impositivo aplicado: IVA ${invoice.vatRate} % incluido.`);
  doc.end();
  return done;
}
