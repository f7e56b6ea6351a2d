import { formatPrice } from "~/features/catalogue/services";
import { escapeHtml, renderMailLayout } from "~/platform/mail/html";
import type { OutgoingMail } from "~/platform/mail/outbox.server";
import { formatDate } from "~/platform/dates";

type Receipt = {
  to: string;
  serviceName: string;
  amountCents: number;
  purchaseId: string;
  /** When the payment was made, or returned. */
  paidAt: Date;
  /** The invoice (or corrective invoice) issued with it, sent as a PDF attachment. */
  invoice?: { number: string; pdf: Buffer };
};

type MailContext = { brandName: string; siteUrl: string };

/** The receipt mailed once a payment completes. */
export function receiptMail(receipt: Receipt, context: MailContext): OutgoingMail {
  const amount = formatPrice(receipt.amountCents);
  return paymentMail(receipt, context, {
    kind: "payment-receipt",
    subject: `Recibo de tu compra: ${receipt.serviceName} - ${context.brandName}`,
    preheader: `Pago de ${amount} recibido. Te contactamos en menos de 24 horas.`,
    heading: "¡Gracias por tu compra!",
    intro:
      "Hemos recibido tu pago. Un especialista se pondrá en contacto contigo en menos de 24 horas para empezar.",
    amountLabel: "Importe",
  });
}

/** The notice mailed once a payment is refunded in full. */
export function refundMail(refund: Receipt, context: MailContext): OutgoingMail {
  const amount = formatPrice(refund.amountCents);
  return paymentMail(refund, context, {
    kind: "payment-refund",
    subject: `Reembolso de tu compra: ${refund.serviceName} - ${context.brandName}`,
    preheader: `Te hemos devuelto ${amount}.`,
    heading: "Hemos reembolsado tu compra",
    intro:
      "Te hemos devuelto el importe completo a la tarjeta con la que pagaste. Según tu banco, puede tardar entre 5 y 10 días hábiles en aparecer.",
    amountLabel: "Importe reembolsado",
  });
}

function paymentMail(
  payment: Receipt,
  context: MailContext,
  copy: {
    kind: string;
    subject: string;
    preheader: string;
    heading: string;
    intro: string;
    amountLabel: string;
  },
): OutgoingMail {
  const rows = [
    ["Servicio", payment.serviceName],
    [copy.amountLabel, `${formatPrice(payment.amountCents)} (IVA incluido)`],
    ["Fecha", formatDate(payment.paidAt, "longDateTime")],
    ["Referencia", payment.purchaseId],
    ...(payment.invoice ? [["Factura", `${payment.invoice.number} (adjunta en PDF)`]] : []),
  ];
  return {
    kind: copy.kind,
    to: payment.to,
    subject: copy.subject,
    html: renderMailLayout({
      ...context,
      preheader: copy.preheader,
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(copy.heading)}</h1>
<p>${escapeHtml(copy.intro)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:16px 0;">${rows
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 12px 6px 0;color:#64748b;">${escapeHtml(label!)}</td><td style="padding:6px 0;font-weight:bold;">${escapeHtml(value!)}</td></tr>`,
        )
        .join("")}</table>
<p>Puedes consultar tus compras en <a href="${escapeHtml(context.siteUrl)}/mi-cuenta" style="color:#1d41b0;">Mi Cuenta</a>.</p>`,
    }),
    text: [
      copy.heading,
      "",
      copy.intro,
      "",
      ...rows.map(([label, value]) => `${label}: ${value}`),
      "",
      `Tus compras: ${context.siteUrl}/mi-cuenta`,
    ].join("\n"),
    attachments: payment.invoice
      ? [
          {
            filename: `factura-${payment.invoice.number}.pdf`,
            contentType: "application/pdf",
            content: payment.invoice.pdf,
          },
        ]
      : undefined,
  };
}
