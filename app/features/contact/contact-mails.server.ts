import { serviceCodeLabel } from "~/features/catalogue/services";
import { getConfig } from "~/platform/config.server";
import { escapeHtml, escapeMultiline, renderMailLayout, singleLine } from "~/platform/mail/html";
import type { HourlyCaps, OutgoingMail } from "~/platform/mail/outbox.server";
import type { ContactInput } from "./contact-schema";

/** The visitor's copy: the one mail anyone can make the site send to an address they type. */
const CONFIRMATION_KIND = "contact-confirmation";

/**
 * The outbox's site-wide hourly cap on visitors' copies (CONTACT_CONFIRMATIONS_PER_HOUR): past
 * it they wait for the next hour; enquiries and the company's notifications never wait.
 */
export function contactMailHourlyCaps(): HourlyCaps {
  return { [CONFIRMATION_KIND]: getConfig().contactConfirmationsPerHour };
}

type MailContext = { brandName: string; siteUrl: string; contactInbox: string };

/** The notification to the company inbox: 'Nueva consulta: {service} - {name}'. */
export function companyNotificationMail(enquiry: ContactInput, context: MailContext): OutgoingMail {
  const service = serviceCodeLabel(enquiry.service);
  const rows = [
    ["Nombre", escapeHtml(enquiry.name)],
    ["Email", `<a href="mailto:${escapeHtml(enquiry.email)}">${escapeHtml(enquiry.email)}</a>`],
    ["Servicio", escapeHtml(service)],
    ["Mensaje", escapeMultiline(enquiry.message)],
  ]
    .map(
      ([label, value]) =>
        `<tr><td style="padding:8px 12px 8px 0;color:#64748b;vertical-align:top;white-space:nowrap;">${label}</td><td style="padding:8px 0;">${value}</td></tr>`,
    )
    .join("");
  return {
    kind: "contact-inbox",
    to: context.contactInbox,
    replyTo: enquiry.email,
    subject: singleLine(`Nueva consulta: ${service} - ${enquiry.name}`),
    html: renderMailLayout({
      ...context,
      preheader: `${enquiry.name} pregunta por ${service}`,
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">Nueva consulta desde la web</h1>
<table role="presentation" cellpadding="0" cellspacing="0" style="width:100%;font-size:15px;">${rows}</table>
<p style="margin-top:24px;color:#64748b;">Responde a este correo para contestar directamente a ${escapeHtml(enquiry.name)}.</p>`,
    }),
    text: [
      "Nueva consulta desde la web",
      "",
      `Nombre: ${enquiry.name}`,
      `Email: ${enquiry.email}`,
      `Servicio: ${service}`,
      "",
      "Mensaje:",
      enquiry.message,
    ].join("\n"),
  };
}

/**
 * The confirmation to the visitor: 'Hemos recibido tu consulta - {brand}'. It does not quote the
 * message: anyone can type any address into the form, and a quoted message would let them send
 * their own text to strangers from the company's domain.
 */
export function visitorConfirmationMail(enquiry: ContactInput, context: MailContext): OutgoingMail {
  const service = serviceCodeLabel(enquiry.service);
  const name = escapeHtml(enquiry.name);
  return {
    kind: CONFIRMATION_KIND,
    to: enquiry.email,
    replyTo: context.contactInbox,
    subject: singleLine(`Hemos recibido tu consulta - ${context.brandName}`),
    html: renderMailLayout({
      ...context,
      preheader: "Te responderemos en menos de 24 horas.",
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">¡Gracias por escribirnos, ${name}!</h1>
<p>Hemos recibido tu consulta sobre <strong>${escapeHtml(service)}</strong>. Un especialista de ${escapeHtml(context.brandName)} la revisará y te responderá en menos de 24 horas laborables.</p>
<p style="margin-top:24px;">Si quieres añadir algo, responde a este correo.</p>
<p>Un saludo,<br>El equipo de ${escapeHtml(context.brandName)}</p>`,
    }),
    text: [
      `¡Gracias por escribirnos, ${enquiry.name}!`,
      "",
      `Hemos recibido tu consulta sobre ${service}. Un especialista de ${context.brandName} la revisará y te responderá en menos de 24 horas laborables.`,
      "",
      "Si quieres añadir algo, responde a este correo.",
      "",
      `Un saludo,\nEl equipo de ${context.brandName}`,
      context.siteUrl,
    ].join("\n"),
  };
}
