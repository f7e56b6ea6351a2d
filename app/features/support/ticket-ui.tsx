import { AlarmClock } from "lucide-react";
import type { ReactNode } from "react";
import { formatDate } from "~/platform/dates";
import { AttachmentList, type AttachmentItem } from "./support-ui";
import { authorLabel, messageAnchor, type TicketReader } from "./ticket-rules";

/** A ticket past its first-response due time with no staff reply yet (the 24-hour promise). */
export function OverdueBadge() {
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-semibold text-red-800 ring-1 ring-red-200">
      <AlarmClock className="size-3.5" aria-hidden />
      Vencido
    </span>
  );
}

/** When the first staff answer is due, and whether that time has passed unanswered. */
export function FirstResponseDue({ dueAt, overdue }: { dueAt: Date | string; overdue: boolean }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <time dateTime={new Date(dueAt).toISOString()} className="whitespace-nowrap">
        {formatDate(dueAt, "shortDateTime")}
      </time>
      {overdue ? <OverdueBadge /> : null}
    </span>
  );
}

export type ConversationMessage = {
  id: string;
  author: "customer" | "staff";
  body: string;
  createdAt: Date | string;
  /** Its files, shown as download links. */
  attachments?: readonly AttachmentItem[];
};

/**
 * A ticket's conversation, oldest first, as its customer or staff read it: each message says who
 * wrote it and when, with its files. `extra` adds something under a message.
 */
export function TicketConversation({
  messages,
  reader,
  extra,
}: {
  messages: readonly ConversationMessage[];
  reader: TicketReader;
  extra?: (message: ConversationMessage) => ReactNode;
}) {
  return (
    <ol className="space-y-4" aria-label="Conversación">
      {messages.map((message) => {
        const staff = message.author === "staff";
        return (
          <li
            key={message.id}
            id={messageAnchor(message.id)}
            data-author={message.author}
            className={`rounded-xl p-4 ring-1 sm:p-5 ${
              staff ? "bg-brand-50/60 ring-brand-100 sm:ml-8" : "bg-white ring-slate-200 sm:mr-8"
            }`}
          >
            <p className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
              <span className="font-semibold text-ink">{authorLabel(message.author, reader)}</span>
              <time dateTime={new Date(message.createdAt).toISOString()} className="text-slate-600">
                {formatDate(message.createdAt, "longDateTime")}
              </time>
            </p>
            <p className="mt-2 break-words whitespace-pre-line text-slate-800">{message.body}</p>
            {/* Staff see images as thumbnails (decision 054); a customer's own files stay links. */}
            <AttachmentList attachments={message.attachments ?? []} previews={reader === "staff"} />
            {extra?.(message)}
          </li>
        );
      })}
    </ol>
  );
}
