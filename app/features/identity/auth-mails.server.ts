import { escapeHtml, renderMailLayout } from "~/platform/mail/html";
import type { OutgoingMail } from "~/platform/mail/outbox.server";

type MailContext = { brandName: string; siteUrl: string };

function buttonHtml(url: string, label: string) {
  return `<p style="margin:28px 0;"><a href="${escapeHtml(url)}" style="background:#2452d9;color:#ffffff;padding:12px 22px;border-radius:8px;text-decoration:none;font-weight:bold;display:inline-block;">${escapeHtml(label)}</a></p>`;
}

export function verificationMail(to: string, url: string, context: MailContext): OutgoingMail {
  return {
    kind: "email-verification",
    to,
    subject: `Confirma tu email - ${context.brandName}`,
    html: renderMailLayout({
      ...context,
      preheader: "Confirma tu dirección para activar tu cuenta.",
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">Confirma tu email</h1>
<p>Gracias por registrarte en ${escapeHtml(context.brandName)}. Pulsa el botón para confirmar tu dirección de email y activar tu cuenta.</p>
${buttonHtml(url, "Confirmar email")}
<p style="color:#64748b;font-size:13px;">El enlace caduca en 24 horas. Si no has creado una cuenta, ignora este mensaje.</p>
<p style="color:#64748b;font-size:13px;word-break:break-all;">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(url)}</p>`,
    }),
    text: [
      "Confirma tu email",
      "",
      `Gracias por registrarte en ${context.brandName}. Abre este enlace para confirmar tu dirección de email y activar tu cuenta:`,
      url,
      "",
      "El enlace caduca en 24 horas. Si no has creado una cuenta, ignora este mensaje.",
    ].join("\n"),
  };
}

export function passwordResetMail(to: string, url: string, context: MailContext): OutgoingMail {
  return {
    kind: "password-reset",
    to,
    subject: `Restablece tu contraseña - ${context.brandName}`,
    html: renderMailLayout({
      ...context,
      preheader: "Elige una contraseña nueva para tu cuenta.",
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">Restablece tu contraseña</h1>
<p>Hemos recibido una solicitud para cambiar la contraseña de tu cuenta en ${escapeHtml(context.brandName)}.</p>
${buttonHtml(url, "Elegir nueva contraseña")}
<p style="color:#64748b;font-size:13px;">El enlace caduca en 1 hora. Si no lo has pedido tú, ignora este mensaje: tu contraseña no cambiará.</p>
<p style="color:#64748b;font-size:13px;word-break:break-all;">Si el botón no funciona, copia este enlace en tu navegador:<br>${escapeHtml(url)}</p>`,
    }),
    text: [
      "Restablece tu contraseña",
      "",
      `Hemos recibido una solicitud para cambiar la contraseña de tu cuenta en ${context.brandName}. Abre este enlace para elegir una nueva:`,
      url,
      "",
      "El enlace caduca en 1 hora. Si no lo has pedido tú, ignora este mensaje.",
    ].join("\n"),
  };
}
