import { staffRoleLabels, type StaffRole } from "~/features/identity/staff-roles";
import { getConfig } from "~/platform/config.server";
import { escapeHtml, renderMailLayout } from "~/platform/mail/html";
import type { OutgoingMail } from "~/platform/mail/outbox.server";

/** Where staff sign in; their first sign-in sets up the second factor (decision 044). */
const STAFF_SIGN_IN_PATH = "/login";

/**
 * The mail that tells an account its staff role changed (issue 39, item 5): given one, where the
 * panel is and what the first sign-in asks; another one, what it is now; none, that the panel
 * is closed to it. It carries no secret.
 */
export function roleChangeMail(
  to: string,
  from: StaffRole | null,
  role: StaffRole | null,
): OutgoingMail {
  const { company, siteUrl } = getConfig();
  const brand = company.brandName;
  const signIn = `${siteUrl}${STAFF_SIGN_IN_PATH}`;
  const { subject, lines } = role
    ? {
        subject: from
          ? `Tu rol en el equipo de ${brand} ha cambiado`
          : `Ya formas parte del equipo de ${brand}`,
        lines: [
          from
            ? `Un administrador ha cambiado tu rol en el panel de ${brand}: antes ${staffRoleLabels[from]}, ahora ${staffRoleLabels[role]}.`
            : `Un administrador te ha dado el rol ${staffRoleLabels[role]} en el panel de ${brand}.`,
          `Entra con tu email y tu contraseña en ${signIn}. Si aún no tienes la verificación en dos pasos, el panel te pedirá activarla la primera vez, con una aplicación de autenticación o una llave de acceso.`,
        ],
      }
    : {
        subject: `Ya no tienes acceso al panel de ${brand}`,
        lines: [
          `Un administrador ha retirado tu rol ${staffRoleLabels[from!]} en el panel de ${brand}.`,
          "Tu cuenta sigue activa como cuenta de cliente.",
        ],
      };
  return {
    kind: "staff-role-changed",
    to,
    subject,
    html: renderMailLayout({
      brandName: brand,
      siteUrl,
      preheader: lines[0]!,
      bodyHtml: `<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(subject)}</h1>
${lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}${
        role ? `\n<p><a href="${escapeHtml(signIn)}">${escapeHtml(signIn)}</a></p>` : ""
      }`,
    }),
    text: [subject, "", ...lines].join("\n"),
  };
}
