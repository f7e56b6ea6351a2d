import { getConfig } from "~/platform/config.server";
import { getDb } from "~/platform/db/database.server";
import { escapeHtml, renderMailLayout } from "~/platform/mail/html";
import { getMailWorker } from "~/platform/mail/mailer.server";
import { enqueueMails } from "~/platform/mail/outbox.server";
import { SITE_LOCALE } from "~/platform/locale";

/**
 * A new way into the account (a passkey, the app's codes) is told to its owner by mail at once
 * (decision 063): whoever added it with a stolen session is then found out, and the owner knows
 * where to remove it. The mail names what was added, when and from which device, and links to
 * the account's security page; it carries no secret.
 */
export async function mailNewWayIn(
  to: string,
  { what, device, securityPath }: { what: string; device: string; securityPath: string },
) {
  const { company, siteUrl } = getConfig();
  const context = { brandName: company.brandName, siteUrl };
  const when = new Intl.DateTimeFormat(SITE_LOCALE.intl, {
    timeZone: "Europe/Madrid",
    dateStyle: "long",
    timeStyle: "short",
  }).format(new Date());
  const url = `${siteUrl}${securityPath}`;
  const sentence = `Se ha añadido ${what} a tu cuenta de ${company.brandName} el ${when} (hora de Madrid), desde ${device}.`;
  const advice =
    "Si has sido tú, no tienes que hacer nada. Si no, entra en tu página de seguridad, elimínala, cierra las demás sesiones y cambia tu contraseña.";
  await enqueueMails(getDb(), [
    {
      kind: "security-new-way-in",
      to,
      subject: `Nueva forma de entrar en tu cuenta - ${company.brandName}`,
      html: renderMailLayout({
        ...context,
        preheader: sentence,
        bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">Nueva forma de entrar en tu cuenta</h1>
<p>${escapeHtml(sentence)}</p>
<p>${escapeHtml(advice)}</p>
<p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`,
      }),
      text: ["Nueva forma de entrar en tu cuenta", "", sentence, "", advice, url].join("\n"),
    },
  ]);
  getMailWorker().wake();
}
