import { formatPrice } from "~/features/catalogue/services";
import { escapeHtml, renderMailLayout } from "~/platform/mail/html";
import type { OutgoingMail } from "~/platform/mail/outbox.server";
import { formatDate } from "~/ui/dates";

type Receipt = {
  to: string;
  serviceName: string;
  amountCents: number;
  purchaseId: string;
  paidAt: Date;
};

export function receiptMail(
  receipt: Receipt,
  context: { brandName: string; siteUrl: string },
): OutgoingMail {
  const amount = formatPrice(receipt.amountCents);
  const rows = [
    ["Servicio", receipt.serviceName],
    ["Importe", `${amount} (IVA incluido)`],
    ["Fecha", formatDate(receipt.paidAt, "longDateTime")],
    ["Referencia", receipt.purchaseId],
  ];
  return {
    kind: "payment-receipt",
    to: receipt.to,
    subject: `Recibo de tu compra: ${receipt.serviceName} - ${context.brandName}`,
    html: renderMailLayout({
      ...context,
      preheader: `Pago de ${amount} recibido. Te contactamos en menos de 24 horas.`,
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">¡Gracias por tu compra!</h1>
<p>Hemos recibido tu pago. Un especialista se pondrá en contacto contigo en menos de 24 horas para empezar.</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:16px 0;">${rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 12px 6px 0;color:#64748b;">${escapeHtml(label!)}</td><td style="padding:6px 0;font-weight:bold;">${escapeHtml(value!)}</td></tr>`,
        )
        .join("")}</table>
<p>Puedes consultar tus compras en <a href="${escapeHtml(context.siteUrl)}/mi-cuenta" style="color:#1d41b0;">Mi Cuenta</a>.</p>`,
    }),
    text: [
      "¡Gracias por tu compra!",
      "",
      "Hemos recibido tu pago. Un especialista se pondrá en contacto contigo en menos de 24 horas para empezar.",
      "",
      ...rows.map(([label, value]) => `${label}: ${value}`),
      "",
      `Tus compras: ${context.siteUrl}/mi-cuenta`,
    ].join("\n"),
  };
}
