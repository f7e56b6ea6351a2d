import { Link } from "react-router";
import { serviceCodeLabel } from "~/features/catalogue/services";
import type { InquiryRow } from "./inquiries-tab.server";
import { Badge } from "~/ui/signed-in/badge";
import { EmailText } from "~/ui/signed-in/email-text";
import { dateColumn, fit, ListTable, PersonCell, type Column } from "./list-table";

/** An enquiry's state: waiting for an answer, or marked handled by staff. */
export function InquiryStateBadge({ handled }: { handled: boolean }) {
  return handled ? (
    <Badge tone="bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200">Atendida</Badge>
  ) : (
    <Badge tone="bg-amber-50 text-amber-900 ring-1 ring-amber-200">Pendiente</Badge>
  );
}

/** The 'Ver' link of an enquiry's row, found again to take the focus back when its dialog closes. */
export function inquiryLinkSelector(inquiryId: string): string {
  return `a[data-inquiry-link="${CSS.escape(inquiryId)}"]`;
}

function inquiryColumns(inquiryHref: (inquiryId: string) => string): Column<InquiryRow>[] {
  return [
    dateColumn("Fecha", fit, (inquiry) => inquiry.createdAt),
    {
      header: "Cliente",
      cell: (inquiry) => (
        <PersonCell main={inquiry.name} under={<EmailText email={inquiry.email} />} />
      ),
    },
    {
      header: "Servicio",
      className: "min-w-32",
      cell: (inquiry) => serviceCodeLabel(inquiry.service),
    },
    {
      header: "Mensaje",
      className: "min-w-48",
      cell: (inquiry) => <p className="line-clamp-2 max-w-md text-slate-700">{inquiry.message}</p>,
    },
    {
      header: "Estado",
      className: fit,
      cell: (inquiry) => <InquiryStateBadge handled={Boolean(inquiry.handledAt)} />,
    },
    {
      header: "Detalle",
      className: fit,
      cell: (inquiry) => (
        <Link
          to={inquiryHref(inquiry.id)}
          preventScrollReset
          data-inquiry-link={inquiry.id}
          // relative: the hidden words stay inside the table's scrolling box.
          className="relative font-semibold text-brand-700 underline"
        >
          Ver<span className="sr-only"> la consulta de {inquiry.name}</span>
        </Link>
      ),
    },
  ];
}

/**
 * Enquiries: the customer's name over the address, the message cut to two lines, and 'Ver',
 * which opens the detail dialog (its address is the list's with `consulta=<id>`).
 */
export function InquiriesTable({
  rows,
  inquiryHref,
}: {
  rows: InquiryRow[];
  inquiryHref: (inquiryId: string) => string;
}) {
  return (
    <ListTable
      caption="Consultas"
      columns={inquiryColumns(inquiryHref)}
      rows={rows}
      rowData={(inquiry) => ({ "data-state": inquiry.handledAt ? "handled" : "pending" })}
    />
  );
}
