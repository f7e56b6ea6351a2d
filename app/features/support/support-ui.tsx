import { Paperclip } from "lucide-react";
import { Link } from "react-router";
import { formatDate } from "~/platform/dates";
import { Field } from "~/ui/form";
import {
  ATTACHMENT_LIMITS,
  attachmentAccept,
  categoryLabel,
  priorityLabel,
  ticketStatusLabel,
} from "./ticket-rules";
import { SITE_LOCALE } from "~/platform/locale";

/**
 * The parts of the ticket pages shared by the customer's and the staff's: one look for status and
 * priority, the files of a message. Their forms are the kit's `ValidatedForm` with the ticket
 * schemas and `supportMessages` (ticket-rules.ts).
 */

const badgeClasses = "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold";

const statusTones: Record<string, string> = {
  open: "bg-sky-50 text-sky-800 ring-1 ring-sky-200",
  in_progress: "bg-amber-50 text-amber-900 ring-1 ring-amber-200",
  resolved: "bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200",
  closed: "bg-slate-100 text-slate-700 ring-1 ring-slate-200",
};

const priorityTones: Record<string, string> = {
  urgent: "bg-red-50 text-red-800 ring-1 ring-red-200",
  high: "bg-orange-50 text-orange-900 ring-1 ring-orange-200",
  medium: "bg-slate-100 text-slate-700 ring-1 ring-slate-200",
  low: "bg-white text-slate-600 ring-1 ring-slate-200",
};

function Badge({ tone, label }: { tone: string | undefined; label: string }) {
  return <span className={`${badgeClasses} ${tone}`}>{label}</span>;
}

/** A ticket's status in words (unknown shows as open), coloured by state. */
export function TicketStatusBadge({ status }: { status: string }) {
  return <Badge tone={statusTones[status] ?? statusTones.open} label={ticketStatusLabel(status)} />;
}

/** A ticket's priority in words (unknown shows as medium). */
export function TicketPriorityBadge({ priority }: { priority: string }) {
  return (
    <Badge tone={priorityTones[priority] ?? priorityTones.medium} label={priorityLabel(priority)} />
  );
}

/** What a list of tickets shows of each (see ticketsOf in tickets.server.ts). */
export type TicketListItem = {
  id: string;
  ticketNumber: string;
  subject: string;
  category: string;
  priority: string;
  status: string;
  createdAt: Date | string;
};

/** A customer's tickets: number, priority, status, subject, date and category, each a link. */
export function TicketList({
  tickets,
  linkTo = (id) => `/mi-cuenta/tickets/${id}`,
}: {
  tickets: TicketListItem[];
  linkTo?: (ticketId: string) => string;
}) {
  return (
    <ul className="divide-y divide-slate-200 rounded-2xl bg-white ring-1 ring-slate-200">
      {tickets.map((ticket) => (
        <li key={ticket.id} className="p-4">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-mono font-semibold text-slate-700">{ticket.ticketNumber}</span>
            <TicketPriorityBadge priority={ticket.priority} />
            <TicketStatusBadge status={ticket.status} />
          </div>
          <Link
            to={linkTo(ticket.id)}
            className="mt-2 block font-semibold break-words text-ink underline-offset-2 hover:text-brand-700 hover:underline"
          >
            {ticket.subject}
          </Link>
          <p className="mt-1 text-sm text-slate-500">
            {formatDate(ticket.createdAt, "date")} · {categoryLabel(ticket.category)}
          </p>
        </li>
      ))}
    </ul>
  );
}

const fileSize = new Intl.NumberFormat(SITE_LOCALE.intl, { maximumFractionDigits: 1 });

/** 2048 → '2 KB', 1572864 → '1,5 MB'. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${fileSize.format(bytes / 1024)} KB`;
  return `${fileSize.format(bytes / (1024 * 1024))} MB`;
}

const maxMegabytes = ATTACHMENT_LIMITS.maxBytes / (1024 * 1024);

/**
 * The files of a ticket message (its form must be `encType="multipart/form-data"`). The server
 * checks them (count, size, type from the content); its refusal shows here, the text is kept.
 */
export function AttachmentsField({ frameClassName }: { frameClassName?: string }) {
  return (
    <Field
      type="file"
      name="attachments"
      multiple
      accept={attachmentAccept}
      label="Adjuntar archivos (opcional)"
      hint={`Hasta ${ATTACHMENT_LIMITS.maxFiles} archivos PNG, JPEG, WebP, PDF o texto, de ${maxMegabytes} MB como máximo cada uno.`}
      frameClassName={frameClassName}
      className="text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:text-sm file:font-semibold file:text-brand-700 hover:file:bg-brand-100"
    />
  );
}

/** What a conversation knows of a file (never its bytes); its type was found from its content. */
export type AttachmentItem = { id: string; fileName: string; size: number; contentType?: string };

/** Types whose files staff see as a thumbnail; the server decides again from the bytes it serves. */
const previewTypes = new Set(["image/png", "image/jpeg", "image/webp", "image/gif"]);

export const attachmentHref = (id: string) => `/soporte/adjuntos/${id}`;
/** The file shown inline when its bytes are an image (never for anything else). */
export const attachmentPreviewHref = (id: string) => `/soporte/adjuntos/${id}?vista`;

export const isPreviewable = (file: AttachmentItem) =>
  !!file.contentType && previewTypes.has(file.contentType);

/** A file's download link, with its name and size. */
export function AttachmentDownload({ file }: { file: AttachmentItem }) {
  return (
    <a
      href={attachmentHref(file.id)}
      download
      className="inline-flex max-w-full items-center gap-1.5 rounded-lg bg-white px-3 py-1.5 text-sm text-brand-700 ring-1 ring-slate-200 hover:bg-slate-50 hover:underline"
    >
      <Paperclip className="size-4 shrink-0" aria-hidden />
      <span className="truncate font-medium">{file.fileName}</span>
      <span className="shrink-0 text-slate-500">({formatFileSize(file.size)})</span>
    </a>
  );
}

/**
 * An image's thumbnail, a link to the whole image in the browser. Its box is fixed (no shift
 * while it loads) and it loads only when scrolled near; its text is the file's name.
 */
export function AttachmentThumbnail({ file }: { file: AttachmentItem }) {
  return (
    <a
      href={attachmentPreviewHref(file.id)}
      className="block w-fit rounded-lg bg-slate-50 p-1 ring-1 ring-slate-200 hover:ring-brand-300"
      data-attachment-preview={file.id}
    >
      <img
        src={attachmentPreviewHref(file.id)}
        alt={file.fileName}
        width={128}
        height={96}
        loading="lazy"
        decoding="async"
        className="h-24 w-32 rounded object-contain"
      />
    </a>
  );
}

/**
 * A message's files as download links, each with its name and size; with `previews` (staff
 * pages), an image also shows as a thumbnail above its link.
 */
export function AttachmentList({
  attachments,
  previews = false,
}: {
  attachments: readonly AttachmentItem[];
  previews?: boolean;
}) {
  if (attachments.length === 0) return null;
  return (
    <ul className="mt-3 flex flex-wrap items-end gap-2" aria-label="Archivos adjuntos">
      {attachments.map((file) => (
        <li key={file.id} className="max-w-full space-y-1.5">
          {previews && isPreviewable(file) ? <AttachmentThumbnail file={file} /> : null}
          <AttachmentDownload file={file} />
        </li>
      ))}
    </ul>
  );
}
