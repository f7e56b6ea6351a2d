import { Mail } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/dev-correo";
import { privatePageMeta } from "~/features/seo/meta";
import { devMailboxPage } from "~/platform/mail/dev-mailbox.server";
import { formatDate } from "~/platform/dates";

export function loader({ context }: Route.LoaderArgs) {
  return devMailboxPage(context.clientAddress);
}

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Buzón de desarrollo",
    description: "Correos enviados por el sitio en modo local.",
    path: "/dev/correo",
  });

export default function DevMailbox({ loaderData }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Buzón de desarrollo</h1>
      <p className="mt-2 text-slate-600">
        {loaderData.smtpConfigured
          ? "SMTP_URL está configurado: los correos nuevos salen por SMTP y no aparecen aquí."
          : "Sin SMTP_URL, los correos del sitio se guardan aquí en lugar de enviarse."}
      </p>
      {loaderData.mails.length === 0 ? (
        <p className="mt-10 rounded-lg bg-slate-50 p-6 text-center text-slate-600">
          Todavía no hay correos.
        </p>
      ) : (
        <ul className="mt-8 divide-y divide-slate-200 rounded-xl ring-1 ring-slate-200">
          {loaderData.mails.map((mail) => (
            <li key={mail.id}>
              <Link
                to={`/dev/correo/${mail.id}`}
                className="flex items-start gap-3 p-4 hover:bg-slate-50"
              >
                <Mail className="mt-0.5 size-5 shrink-0 text-brand-600" aria-hidden />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-semibold text-ink">{mail.subject}</span>
                  <span className="block truncate text-sm text-slate-600">
                    Para: {mail.recipient}
                  </span>
                </span>
                <time
                  className="shrink-0 text-sm text-slate-500"
                  dateTime={new Date(mail.createdAt).toISOString()}
                >
                  {formatDate(mail.createdAt, "shortDateTimeSeconds")}
                </time>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
