import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { formatPrice } from "~/features/catalogue/services";
import type { invoices } from "~/platform/db/schema";
import { formatDate } from "~/platform/dates";

type Invoice = typeof invoices.$inferSelect;
type Pdf = InstanceType<typeof PDFDocument>;

const TITLES: Record<Invoice["kind"], string> = {
  simplified: "Factura simplificada",
  complete: "Factura",
  corrective: "Factura rectificativa",
};

const euros = (cents: number) => formatPrice(cents, { cents: "always" });

const MARGIN = 56;
/** The size of the invoice's data; the QR's legends are never smaller (AEAT's QR spec §3). */
const BODY_SIZE = 10;
const POINTS_PER_MM = 72 / 25.4;
/** Orden HAC/1177/2024 art. 21.1: between 30×30 and 40×40 mm; the middle of the range. */
export const QR_SIZE_MM = 35;
/** AEAT asks for at least 2 mm of blank around the code and recommends 6 mm. */
const QR_QUIET_ZONE_MM = 6;

export type InvoicePdfExtras = {
  brandName: string;
  /** The invoice a corrective one corrects (RD 1619/2012 art. 15: its number and date). */
  corrected?: { number: string; issuedAt: Date };
  /** The simplified invoice a complete one replaces (an F3), and when the sale took place. */
  substituted?: { number: string; issuedAt: Date };
  /** The complete invoice that replaced this simplified one at the buyer's request. */
  substitute?: { number: string; issuedAt: Date };
  /** When its registro de anulación was generated: the invoice was issued in error. */
  annulledAt?: Date;
  /** The cotejo URL of the invoice's Verifactu record; none for an invoice issued before it. */
  cotejoUrl?: string;
};

/**
 * The QR code as filled squares, one rectangle per horizontal run of dark modules (so that no
 * hairline seams appear between neighbours): ISO/IEC 18004 with error correction M (art. 21.1).
 */
function drawQrCode(doc: Pdf, text: string, left: number, top: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const module = size / modules.size;
  for (let row = 0; row < modules.size; row++) {
    let column = 0;
    while (column < modules.size) {
      if (!modules.get(row, column)) {
        column++;
        continue;
      }
      const start = column;
      while (column < modules.size && modules.get(row, column)) column++;
      doc.rect(left + start * module, top + row * module, (column - start) * module, module);
    }
  }
  doc.fill("black");
}

/**
 * The QR block at the top of the first page, centred, before anything else (AEAT's QR spec §3):
 * 'QR tributario:' above the code and, since this is a VERI*FACTU system, 'Factura verificable en
 * la sede electrónica de la AEAT' right below it, with the quiet zone kept blank around it.
 */
function drawQrBlock(doc: Pdf, cotejoUrl: string) {
  const size = QR_SIZE_MM * POINTS_PER_MM;
  const quiet = QR_QUIET_ZONE_MM * POINTS_PER_MM;
  const width = doc.page.width - 2 * MARGIN;
  doc.font("Helvetica").fontSize(BODY_SIZE);
  doc.text("QR tributario:", MARGIN, MARGIN, { width, align: "center" });
  const top = doc.y + quiet;
  drawQrCode(doc, cotejoUrl, (doc.page.width - size) / 2, top, size);
  doc.text("Factura verificable en la sede electrónica de la AEAT", MARGIN, top + size + quiet, {
    width,
    align: "center",
  });
  doc.moveDown(1.5);
}

/** The invoice's single line: concept, quantity, unit price and amount (before IVA). */
function drawLine(doc: Pdf, invoice: Invoice) {
  const columns = [
    { title: "Concepto", x: MARGIN, width: 239, align: "left" },
    { title: "Cantidad", x: 295, width: 60, align: "right" },
    { title: "Precio unitario", x: 355, width: 90, align: "right" },
    { title: "Importe", x: 445, width: doc.page.width - MARGIN - 445, align: "right" },
  ] as const;
  const values = [invoice.description, "1", euros(invoice.baseAmount), euros(invoice.baseAmount)];

  let y = doc.y;
  doc.font("Helvetica-Bold");
  for (const { title, x, width, align } of columns) doc.text(title, x, y, { width, align });
  y = doc.y + 3;
  doc
    .moveTo(MARGIN, y)
    .lineTo(doc.page.width - MARGIN, y)
    .lineWidth(0.5)
    .stroke();
  y += 5;
  doc.font("Helvetica");
  let bottom = y;
  columns.forEach(({ x, width, align }, index) => {
    doc.text(values[index]!, x, y, { width, align });
    bottom = Math.max(bottom, doc.y);
  });
  doc.x = MARGIN;
  doc.y = bottom;
}

/**
 * An invoice as a PDF (A4, the standard Helvetica, which covers Spanish text and the euro sign):
 * the Verifactu QR, the seller, the customer, the line with quantity and unit price, base, IVA,
 * total and payment method, and for a corrective invoice the invoice it corrects and why.
 * Rendered from the stored row and record only, so a download years later prints what was issued.
 */
export function renderInvoicePdf(
  invoice: Invoice,
  { brandName, corrected, substituted, substitute, annulledAt, cotejoUrl }: InvoicePdfExtras,
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: { Title: `${TITLES[invoice.kind]} ${invoice.number}`, Author: invoice.sellerName },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  if (cotejoUrl) drawQrBlock(doc, cotejoUrl);

  doc.font("Helvetica-Bold").fontSize(20).text(brandName, MARGIN);
  doc.moveDown(0.5).fontSize(14).text(`${TITLES[invoice.kind]} ${invoice.number}`);
  doc
    .font("Helvetica")
    .fontSize(BODY_SIZE)
    .text(`Fecha de expedición: ${formatDate(invoice.issuedAt, "date")}`);
  if (invoice.kind === "corrective") {
    doc.text(
      corrected
        ? `Rectifica la factura ${corrected.number}, de ${formatDate(corrected.issuedAt, "date")}`
        : "Factura rectificativa",
    );
    if (invoice.correctionReason) doc.text(`Motivo: ${invoice.correctionReason}`);
  }
  // RD 1619/2012 art. 6.1.g: the operation's date when it is not the issue date.
  if (substituted) {
    const operated = formatDate(substituted.issuedAt, "date");
    if (operated !== formatDate(invoice.issuedAt, "date"))
      doc.text(`Fecha de la operación: ${operated}`);
    doc.text(
      `Sustituye a la factura simplificada ${substituted.number}, de ${formatDate(substituted.issuedAt, "date")}`,
    );
  }
  if (substitute)
    doc
      .moveDown(0.5)
      .font("Helvetica-Bold")
      .text(
        `Sustituida por la factura ${substitute.number}, de ${formatDate(substitute.issuedAt, "date")}, a petición del cliente.`,
      )
      .font("Helvetica");
  if (annulledAt) {
    doc.moveDown(0.5).font("Helvetica-Bold").fontSize(16).fillColor("#b91c1c").text("ANULADA");
    doc
      .font("Helvetica")
      .fontSize(BODY_SIZE)
      .text(
        `Factura emitida por error y anulada el ${formatDate(annulledAt, "date")}: no tiene validez.`,
      )
      .fillColor("black");
  }

  doc.moveDown().font("Helvetica-Bold").text("Emisor");
  doc.font("Helvetica").text(invoice.sellerName);
  doc.text(`NIF: ${invoice.sellerTaxId}`);
  doc.text(invoice.sellerAddress);

  const customer = [
    invoice.customerName,
    invoice.customerTaxId ? `NIF: ${invoice.customerTaxId}` : undefined,
    invoice.customerAddress,
    invoice.customerEmail,
  ].filter(Boolean);
  if (customer.length > 0) {
    doc.moveDown().font("Helvetica-Bold").text("Cliente");
    doc.font("Helvetica");
    for (const line of customer) doc.text(line!);
  }

  doc.moveDown(1.5);
  drawLine(doc, invoice);
  doc.moveDown();
  const rows: [string, string][] = [
    ["Base imponible", euros(invoice.baseAmount)],
    [`IVA (${invoice.vatRate} %)`, euros(invoice.vatAmount)],
    ["Total", euros(invoice.totalAmount)],
  ];
  for (const [label, amount] of rows) {
    const y = doc.y;
    doc.font(label === "Total" ? "Helvetica-Bold" : "Helvetica").text(label, MARGIN, y);
    doc.text(amount, MARGIN, y, { align: "right" });
  }
  doc.moveDown().font("Helvetica").text(`Forma de pago: ${invoice.paymentMethod}`);
  if (invoice.kind === "simplified")
    doc.moveDown().text(`Tipo impositivo aplicado: IVA ${invoice.vatRate} % incluido.`);
  doc.end();
  return done;
}
