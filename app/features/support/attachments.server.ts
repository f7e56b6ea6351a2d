import { count, desc, eq } from "drizzle-orm";
import { hasSecondFactor } from "~/features/identity/second-factor.server";
import { staffRoleOf, type Viewer } from "~/features/identity/session.server";
import { staffCan } from "~/features/identity/staff-roles";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { isUuid } from "~/platform/db/ids";
import { supportTickets, ticketAttachments, ticketMessages } from "~/platform/db/schema";
import { ATTACHMENT_LIMITS, type SupportMessage } from "./ticket-rules";

/**
 * Files sent with a ticket message: their type found from their bytes (never from the name or the
 * type the browser declares), kept in the database so every instance serves them, and handed out
 * only to the ticket's owner and to staff, as downloads that a browser never renders.
 */

/** Binary types found by their signature, with the extensions a download of each may keep. */
const binaryTypes: Record<string, string[]> = {
  "image/png": ["png"],
  "image/jpeg": ["jpg", "jpeg"],
  "image/webp": ["webp"],
  "application/pdf": ["pdf"],
};
const textExtensions = ["txt", "log", "csv", "md"];

/** A file the server accepted: the name it will be downloaded with, its type and its bytes. */
export type CheckedAttachment = {
  fileName: string;
  contentType: string;
  size: number;
  content: Buffer;
};

/** Why the files of a message were refused, and which one (for 'no se ha enviado'). */
export type AttachmentRefusal = { error: SupportMessage; fileName?: string };

/** What a conversation shows of a file: never its bytes. */
export type AttachmentSummary = {
  id: string;
  messageId: string;
  fileName: string;
  contentType: string;
  size: number;
};

/**
 * Plain text has no signature: UTF-8 without NUL or other control characters than tab, CR and LF,
 * and not a markup document (HTML, SVG, XML), which a browser could be talked into rendering.
 */
function isPlainText(bytes: Uint8Array): boolean {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex -- exactly the control characters are refused
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(text)) return false;
  const start = text.replace(/^\ufeff/, "").trimStart();
  if (start.startsWith("<")) return false;
  return !/<(?:script|svg|html|iframe|object|embed)\b/i.test(text);
}

/** The type of a file from its content, if it is one of the allowed ones. */
export async function attachmentType(bytes: Uint8Array): Promise<string | undefined> {
  if (bytes.length === 0) return undefined;
  // A truncated or crafted container can make the parser give up: such a file is no allowed type.
  // Loaded with the first attachment, not at start (decision 039).
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(bytes).catch(() => null);
  if (found === null) return undefined;
  if (found) return found.mime in binaryTypes ? found.mime : undefined;
  return isPlainText(bytes) ? "text/plain" : undefined;
}

const FILE_NAME_MAX = 120;

/**
 * The name a file is kept and downloaded with: no folders, no control or reserved characters, not
 * too long, and an extension that matches its real type (a PNG named 'informe.pdf' is downloaded
 * as 'informe.pdf.png', so it opens with the right program).
 */
export function attachmentFileName(declared: string, contentType: string): string {
  const base = declared.split(/[/\\]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex -- control characters never reach a file name
  let name = base.replace(/[\u0000-\u001f\u007f-\u009f<>:"|?*]/g, "").trim();
  name = name.replace(/^\.+/, "").slice(0, FILE_NAME_MAX).trim() || "adjunto";
  const extensions = binaryTypes[contentType] ?? textExtensions;
  const extension = name.includes(".") ? name.split(".").pop()!.toLowerCase() : "";
  return extensions.includes(extension) ? name : `${name}.${extensions[0]}`;
}

/**
 * The files of a form, checked: at most 3, each at most 5 MB and of an allowed type. An empty file
 * input sends one nameless empty file, which is not an attachment.
 */
export async function checkAttachments(
  files: File[],
): Promise<{ ok: true; attachments: CheckedAttachment[] } | ({ ok: false } & AttachmentRefusal)> {
  const sent = files.filter((file) => file.name !== "" || file.size > 0);
  if (sent.length > ATTACHMENT_LIMITS.maxFiles) return { ok: false, error: "tooManyAttachments" };
  const tooBig = sent.find((file) => file.size > ATTACHMENT_LIMITS.maxBytes);
  if (tooBig) return { ok: false, error: "attachmentTooBig", fileName: tooBig.name };
  const attachments: CheckedAttachment[] = [];
  for (const file of sent) {
    const content = Buffer.from(await file.arrayBuffer());
    const contentType = await attachmentType(content);
    if (!contentType) return { ok: false, error: "attachmentType", fileName: file.name };
    attachments.push({
      fileName: attachmentFileName(file.name, contentType),
      contentType,
      size: content.length,
      content,
    });
  }
  return { ok: true, attachments };
}

/** Writes the files of a new message, in the caller's transaction. */
export async function storeAttachments(
  tx: Pick<Database, "insert">,
  message: { ticketId: string; messageId: string },
  attachments: CheckedAttachment[],
) {
  if (attachments.length === 0) return;
  await tx
    .insert(ticketAttachments)
    .values(attachments.map((attachment) => ({ ...attachment, ...message })));
}

/** The files of a ticket's messages, oldest first (a message's by name), without their bytes. */
export function attachmentsOf(ticketId: string): Promise<AttachmentSummary[]> {
  return getDb()
    .select({
      id: ticketAttachments.id,
      messageId: ticketAttachments.messageId,
      fileName: ticketAttachments.fileName,
      contentType: ticketAttachments.contentType,
      size: ticketAttachments.size,
    })
    .from(ticketAttachments)
    .where(eq(ticketAttachments.ticketId, ticketId))
    .orderBy(ticketAttachments.createdAt, ticketAttachments.fileName, ticketAttachments.id);
}

/** A customer's latest files, across their tickets, for staff (their customer page). */
export const CUSTOMER_ATTACHMENT_ROWS = 20;

/**
 * The newest files of the account's tickets, each with its ticket, and how many there are: from
 * the account's tickets (support_tickets_user_idx) through their messages
 * (ticket_messages_ticket_idx) to the files (ticket_attachments_message_idx).
 */
export async function customerAttachments(userId: string) {
  const db = getDb();
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        id: ticketAttachments.id,
        fileName: ticketAttachments.fileName,
        contentType: ticketAttachments.contentType,
        size: ticketAttachments.size,
        createdAt: ticketAttachments.createdAt,
        ticketId: supportTickets.id,
        ticketNumber: supportTickets.ticketNumber,
      })
      .from(ticketAttachments)
      .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
      .innerJoin(supportTickets, eq(supportTickets.id, ticketMessages.ticketId))
      .where(eq(supportTickets.userId, userId))
      .orderBy(desc(ticketAttachments.createdAt), desc(ticketAttachments.id))
      .limit(CUSTOMER_ATTACHMENT_ROWS),
    db
      .select({ total: count() })
      .from(ticketAttachments)
      .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
      .innerJoin(supportTickets, eq(supportTickets.id, ticketMessages.ticketId))
      .where(eq(supportTickets.userId, userId)),
  ]);
  return { rows, total: counted?.total ?? 0 };
}

/**
 * The image type of a file from its first bytes, or undefined: only these are ever shown inline
 * (a preview), and the type served is this one, never the stored or the declared one. GIF is
 * not accepted on upload, but a GIF is as harmless to show as the others.
 */
export function inlineImageType(bytes: Uint8Array): string | undefined {
  const starts = (signature: number[], at = 0) =>
    bytes.length >= at + signature.length &&
    signature.every((byte, index) => bytes[at + index] === byte);
  const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts(ascii("GIF87a")) || starts(ascii("GIF89a"))) return "image/gif";
  if (starts(ascii("RIFF")) && starts(ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

/** RFC 5987/6266: an ASCII fallback name, and the real one percent-encoded in UTF-8. */
export function contentDisposition(
  fileName: string,
  disposition: "attachment" | "inline" = "attachment",
): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

const notFound = () =>
  new Response("Not Found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "private, no-store" },
  });

/** Stricter than the site's policy in every directive it has. */
export const ATTACHMENT_POLICY =
  "default-src 'none'; sandbox; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * GET /soporte/adjuntos/:attachmentId: the file, for the ticket's owner or staff who may read
 * tickets (`tickets.view`: support and admin); for anyone else,
 * signed in or not, it does not exist (404), so an id tells nobody that a file is behind it.
 * With `?vista` (a preview) an image whose bytes are PNG, JPEG, WebP or GIF is sent `inline`
 * with that type, for an `<img>` or a tab to show; anything else, and every file without
 * `?vista`, is an `attachment`. Either way under `nosniff` and a sandboxing policy.
 */
export async function attachmentDownload(
  viewer: Viewer | null,
  attachmentId: string | undefined,
  preview = false,
): Promise<Response> {
  if (!viewer || !isUuid(attachmentId)) return notFound();
  const [file] = await getDb()
    .select({
      fileName: ticketAttachments.fileName,
      contentType: ticketAttachments.contentType,
      content: ticketAttachments.content,
      ownerId: supportTickets.userId,
    })
    .from(ticketAttachments)
    .innerJoin(supportTickets, eq(supportTickets.id, ticketAttachments.ticketId))
    .where(eq(ticketAttachments.id, attachmentId));
  // Its customer, and staff who may read tickets and have their second factor (decision 044);
  // for anyone else the file does not exist.
  if (
    !file ||
    (file.ownerId !== viewer.id &&
      !(
        staffCan(await staffRoleOf(viewer.id), "tickets.view") && (await hasSecondFactor(viewer.id))
      ))
  )
    return notFound();
  const textual = file.contentType.startsWith("text/");
  // Decided from the bytes served: a row whose stored type says image/png but whose content is
  // SVG or HTML (written by hand, or by an older check) is still only a download.
  const image = preview ? inlineImageType(file.content) : undefined;
  return new Response(new Uint8Array(file.content), {
    headers: {
      "Content-Type": image ?? (textual ? `${file.contentType}; charset=utf-8` : file.contentType),
      "Content-Length": String(file.content.length),
      "Content-Disposition": contentDisposition(file.fileName, image ? "inline" : "attachment"),
      "X-Content-Type-Options": "nosniff",
      // The one policy of the answer (it replaces the site's): nothing in the file may run,
      // load, frame it, post or navigate.
      "Content-Security-Policy": ATTACHMENT_POLICY,
      "Cache-Control": "private, no-store",
    },
  });
}
