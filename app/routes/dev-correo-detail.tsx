import { ArrowLeft } from "lucide-react";
import { Link } from "react-router";
import type { Route } from "./+types/dev-correo-detail";
import { privatePageMeta } from "~/features/seo/meta";
import { devMailPage } from "~/platform/mail/dev-mailbox.server";

export function loader({ params, context }: Route.LoaderArgs) {
  return devMailPage(context.clientAddress, params.id);
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  privatePageMeta(matches, {
    title: loaderData?.mail.subject ?? "Correo",
    description: "Correo del buzón de desarrollo.",
    path: "/dev/correo",
  });

export default function DevMail({ loaderData: { mail } }: Route.ComponentProps) {
  return (
    <article className="mx-auto max-w-4xl px-4 py-12 sm:px-6">
      <Link
        to="/dev/correo"
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700"
      >
        <ArrowLeft className="size-4" aria-hidden />
        Buzón de desarrollo
      </Link>
      <h1 className="mt-4 text-2xl font-bold tracking-tight">{mail.subject}</h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">Para</dt>
        <dd>{mail.recipient}</dd>
        {mail.replyTo ? (
          <>
            <dt className="text-slate-500">Responder a</dt>
            <dd>{mail.replyTo}</dd>
          </>
        ) : null}
        <dt className="text-slate-500">Tipo</dt>
        <dd>{mail.kind}</dd>
      </dl>
      {mail.links.length > 0 ? (
        <section className="mt-6">
          <h2 className="text-sm font-semibold text-ink">Enlaces</h2>
          <ul className="mt-2 space-y-1 text-sm">
            {mail.links.map((href) => (
              <li key={href}>
                <a href={href} className="break-all text-brand-700 underline">
                  {href}
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <h2 className="mt-8 text-sm font-semibold text-ink">HTML</h2>
      {/* The mail is untrusted markup: a sandbox without scripts or same-origin access. */}
      <iframe
        title="Contenido HTML del correo"
        sandbox=""
        srcDoc={mail.html}
        className="mt-2 h-[32rem] w-full rounded-lg ring-1 ring-slate-200"
      />
      <h2 className="mt-8 text-sm font-semibold text-ink">Texto</h2>
      <pre className="mt-2 overflow-x-auto rounded-lg bg-slate-50 p-4 text-sm whitespace-pre-wrap ring-1 ring-slate-200">
        {mail.text}
      </pre>
    </article>
  );
}
