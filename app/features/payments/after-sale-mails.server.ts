import { escapeHtml, renderMailLayout } from "~/platform/mail/html";
import type { OutgoingMail } from "~/platform/mail/outbox.server";
import { formatDate } from "~/platform/dates";
import { deliveryStatusLabel } from "./after-sale-status";

type MailContext = { brandName: string; siteUrl: string };

/** A short mail about one purchase: a heading, a paragraph or two, its facts and a link. */
function purchaseMail(
  context: MailContext,
  mail: {
    kind: string;
    to: string;
    subject: string;
    heading: string;
    paragraphs: string[];
    facts: [string, string][];
    link?: { label: string; path: string };
  },
): OutgoingMail {
  const link = mail.link ? `${context.siteUrl}${mail.link.path}` : undefined;
  return {
    kind: mail.kind,
    to: mail.to,
    subject: mail.subject,
    html: renderMailLayout({
      ...context,
      preheader: mail.paragraphs[0] ?? mail.heading,
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(mail.heading)}</h1>
${mail.paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join("\n")}
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;margin:16px 0;">${mail.facts
        .map(
          ([label, value]) =>
            `<tr><td style="padding:6px 12px 6px 0;color:#64748b;">${escapeHtml(label)}</td><td style="padding:6px 0;font-weight:bold;">${escapeHtml(value)}</td></tr>`,
        )
        .join("")}</table>
${link ? `<p><a href="${escapeHtml(link)}" style="color:#1d41b0;">${escapeHtml(mail.link!.label)}</a></p>` : ""}`,
    }),
    text: [
      mail.heading,
      "",
      ...mail.paragraphs,
      "",
      ...mail.facts.map(([label, value]) => `${label}: ${value}`),
      ...(link ? ["", `${mail.link!.label}: ${link}`] : []),
    ].join("\n"),
  };
}

/** Where a customer's mail sends them: their purchases in Mi Cuenta. */
const myPurchasesLink = { label: "Ver mis compras", path: "/mi-cuenta?tab=compras" };

/** The facts of a customer's mail: the service, the one fact of the mail and the reference. */
function customerFacts(
  purchase: { id: string; serviceName: string },
  fact: [string, string],
): [string, string][] {
  return [["Servicio", purchase.serviceName], fact, ["Referencia", purchase.id]];
}

/** The customer is told each time the staff move the delivery of a purchase on. */
export function deliveryMail(
  purchase: { id: string; serviceName: string },
  to: string,
  change: { status: string; note: string },
  context: MailContext,
): OutgoingMail {
  const label = deliveryStatusLabel(change.status);
  return purchaseMail(context, {
    kind: "delivery-update",
    to,
    subject: `Tu compra ${purchase.serviceName}: ${label.toLowerCase()} - ${context.brandName}`,
    heading: `${purchase.serviceName}: ${label}`,
    paragraphs: [
      `Hemos actualizado el estado de tu servicio a «${label}».`,
      ...(change.note ? [change.note] : []),
    ],
    facts: customerFacts(purchase, ["Estado de la entrega", label]),
    link: myPurchasesLink,
  });
}

/** The acknowledgement of a withdrawal, with the date and time it was received (art. 106.4). */
export function withdrawalAcknowledgement(
  purchase: { id: string; serviceName: string },
  to: string,
  receivedAt: Date,
  context: MailContext,
): OutgoingMail {
  return purchaseMail(context, {
    kind: "withdrawal-acknowledgement",
    to,
    subject: `Hemos recibido tu desistimiento: ${purchase.serviceName} - ${context.brandName}`,
    heading: "Hemos recibido tu desistimiento",
    paragraphs: [
      `Te confirmamos que hemos recibido tu decisión de desistir del contrato de ${purchase.serviceName}.`,
      "Te devolveremos el importe que corresponda en un plazo máximo de 14 días naturales, por el mismo medio de pago que utilizaste, y te enviaremos la factura rectificativa.",
    ],
    facts: customerFacts(purchase, ["Recibido el", formatDate(receivedAt, "longDateTime")]),
    link: myPurchasesLink,
  });
}

/** The company inbox hears of each withdrawal at once: it has 14 days to refund. */
export function withdrawalNotice(
  purchase: { id: string; serviceName: string },
  customerEmail: string,
  inbox: string,
  receivedAt: Date,
  paymentId: string | undefined,
  context: MailContext,
): OutgoingMail {
  return purchaseMail(context, {
    kind: "withdrawal-notice",
    to: inbox,
    subject: `Desistimiento de ${customerEmail}: ${purchase.serviceName}`,
    heading: "Un cliente ha desistido del contrato",
    paragraphs: ["Hay 14 días naturales para devolver el importe que corresponda."],
    facts: [
      ["Cliente", customerEmail],
      ["Servicio", purchase.serviceName],
      ["Recibido el", formatDate(receivedAt, "longDateTime")],
      ["Referencia", purchase.id],
    ],
    link: paymentId ? { label: "Abrir el pago", path: `/admin/pagos/${paymentId}` } : undefined,
  });
}
