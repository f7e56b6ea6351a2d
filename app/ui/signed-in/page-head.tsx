import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "react-router";

/**
 * The head of a page that opens one record from a list (a ticket, a payment): the way back to
 * the list, the record's reference, its title and whatever states it (badges, a summary line).
 */
export function RecordPageHead({
  back,
  reference,
  title,
  children,
}: {
  back: { to: string; label: string };
  /** A number such as 'TK-2026-000042', shown small above the title. */
  reference?: ReactNode;
  title: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <Link
        to={back.to}
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft className="size-4" aria-hidden />
        {back.label}
      </Link>
      {reference ? (
        <p className="mt-5 font-mono text-sm font-semibold text-slate-600">{reference}</p>
      ) : null}
      <h1
        className={`${reference ? "mt-1" : "mt-5"} text-2xl font-bold tracking-tight break-words sm:text-3xl`}
      >
        {title}
      </h1>
      {children}
    </>
  );
}
