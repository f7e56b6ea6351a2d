import { and, eq, sql } from "drizzle-orm";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { getViewer, type Viewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { supportTickets, ticketAttachments, ticketMessages } from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import { hitRateLimit, type RateLimitRule } from "~/platform/security/rate-limit.server";
import { ATTACHMENT_QUOTA_MB, type SupportMessage } from "./ticket-rules";
import type { Tx } from "./ticket-store.server";

/*
 * How much a customer may post to support (decision 033): new tickets and messages per hour, and
 * the bytes of files kept for them. Judged from the session and the declared Content-Length
 * before a body of up to 16 MB is read; the files' real sizes are checked again when stored.
 * Staff replies (/admin/tickets) are not limited here.
 */

/** New tickets of one customer per hour (decision 020). */
export const TICKETS_PER_CUSTOMER: RateLimitRule = { limit: 10, windowMs: 60 * 60_000 };
/** Posts to a customer's tickets (messages, 'resolved') per hour, all their tickets together. */
export const MESSAGES_PER_CUSTOMER: RateLimitRule = { limit: 20, windowMs: 60 * 60_000 };
/** The files of a customer's own messages, all tickets together. */
export const ATTACHMENT_QUOTA_BYTES = ATTACHMENT_QUOTA_MB * 1024 * 1024;
/**
 * A body this small passes the quota whatever it holds: the text of a message and the framing of
 * the form (the ordinary body limit of server.ts). A larger one must fit in what is left.
 */
const FORM_WITHOUT_FILES_BYTES = 64 * 1024;

/** Written by `guardTicketPosts` on every request (any value a client sent is dropped). */
export const TICKET_POST_CHECK_HEADER = "x-ticket-post-check";

export type TicketPostKind = "ticket" | "message";
export type TicketPostRefusal = { code: SupportMessage; status: number; retryAfter?: number };

const CUSTOMER_TICKET_POST = /^\/mi-cuenta\/tickets\/([^/]+?)(?:\.data)?$/i;

/** Which customer post a path is, if any: a new ticket, or a message on one. */
export function ticketPostKind(path: string): TicketPostKind | undefined {
  const segment = CUSTOMER_TICKET_POST.exec(path)?.[1];
  if (segment === undefined) return undefined;
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A malformed escape is no route of ours; React Router answers it.
  }
  return decoded.toLowerCase() === "nuevo" ? "ticket" : "message";
}

/** Bytes of files the customer sent (staff files on their tickets are not theirs). */
export async function storedAttachmentBytes(userId: string, db: Pick<Tx, "select"> = getDb()) {
  const [row] = await db
    .select({ bytes: sql<number>`coalesce(sum(${ticketAttachments.size}), 0)`.mapWith(Number) })
    .from(ticketAttachments)
    .innerJoin(ticketMessages, eq(ticketMessages.id, ticketAttachments.messageId))
    .innerJoin(supportTickets, eq(supportTickets.id, ticketAttachments.ticketId))
    .where(and(eq(supportTickets.userId, userId), eq(ticketMessages.author, "customer")));
  return row?.bytes ?? 0;
}

/**
 * Declared bytes of the customer's large posts this instance is reading now: twenty posts of
 * 15 MB sent at once would each fit the quota alone, and all be read into memory.
 */
const bytesInFlight = new Map<string, number>();

function reserve(userId: string, bytes: number): () => void {
  bytesInFlight.set(userId, (bytesInFlight.get(userId) ?? 0) + bytes);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (bytesInFlight.get(userId) ?? 0) - bytes;
    if (left > 0) bytesInFlight.set(userId, left);
    else bytesInFlight.delete(userId);
  };
}

/**
 * The one rule: counts the post against its hourly limit, then refuses a body larger than the
 * files the customer may still store. Never reads the body.
 */
async function judgePost(
  userId: string,
  kind: TicketPostKind,
  declaredBytes: number,
): Promise<TicketPostRefusal | null> {
  const [key, rule, code] =
    kind === "ticket"
      ? ([`tickets:user:${userId}`, TICKETS_PER_CUSTOMER, "tooManyTickets"] as const)
      : ([`ticket-messages:user:${userId}`, MESSAGES_PER_CUSTOMER, "tooManyMessages"] as const);
  const limit = await hitRateLimit(getDb(), key, rule);
  if (!limit.allowed) return { code, status: 429, retryAfter: limit.retryAfterSeconds };
  if (declaredBytes <= FORM_WITHOUT_FILES_BYTES) return null;
  const used = (await storedAttachmentBytes(userId)) + (bytesInFlight.get(userId) ?? 0);
  if (declaredBytes > ATTACHMENT_QUOTA_BYTES - used + FORM_WITHOUT_FILES_BYTES)
    return { code: "attachmentQuota", status: 413 };
  return null;
}

const declaredLength = (value: string | null | undefined) => {
  const bytes = Number(value ?? 0);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
};

const verdictText = (kind: TicketPostKind, refusal: TicketPostRefusal | null) =>
  refusal ? `${kind}:${refusal.code}:${refusal.status}:${refusal.retryAfter ?? ""}` : `${kind}:ok`;

function verdictOf(text: string, kind: TicketPostKind): TicketPostRefusal | null | undefined {
  const [judged, code, status, retryAfter] = text.split(":");
  if (judged !== kind) return undefined;
  if (code === "ok") return null;
  return {
    code: code as SupportMessage,
    status: Number(status),
    ...(retryAfter ? { retryAfter: Number(retryAfter) } : {}),
  };
}

/**
 * Express, before anything reads the body: judges a customer's post to their tickets and leaves
 * the verdict in a header for the action, which answers a refusal as a form answer (the page or
 * the fetcher shows it) without reading the body. A body that fits is reserved against the quota
 * until its answer is sent. When the check itself fails, the action judges again.
 */
export async function guardTicketPosts(
  req: ExpressRequest,
  res: ExpressResponse,
  next: NextFunction,
) {
  delete req.headers[TICKET_POST_CHECK_HEADER];
  const kind = req.method === "POST" ? ticketPostKind(req.path) : undefined;
  if (!kind) return next();
  try {
    const { viewer, headers } = await getViewer(
      new Request("http://localhost/", { headers: { Cookie: req.get("cookie") ?? "" } }),
    );
    // Reading the session may renew it (or end it): its cookie goes out with the answer.
    for (const cookie of headers.getSetCookie()) res.append("Set-Cookie", cookie);
    // Without a session the route sends the visitor to sign in, body unread.
    if (!viewer) return next();
    const declared = declaredLength(req.get("content-length"));
    const refusal = await judgePost(viewer.id, kind, declared);
    req.headers[TICKET_POST_CHECK_HEADER] = verdictText(kind, refusal);
    if (!refusal && declared > FORM_WITHOUT_FILES_BYTES)
      res.once("close", reserve(viewer.id, declared));
  } catch (error) {
    getLogger().warn({ err: error }, "checking a ticket post before its body failed");
  }
  next();
}

/**
 * In the action, before the body is read: the verdict of `guardTicketPosts`, or, for a request
 * that did not pass it (called directly, or at a path spelt otherwise), the same rule now.
 */
export async function refusalBeforeBody(
  request: Request,
  viewer: Viewer,
  kind: TicketPostKind,
): Promise<TicketPostRefusal | null> {
  const judged = verdictOf(request.headers.get(TICKET_POST_CHECK_HEADER) ?? "", kind);
  if (judged !== undefined) return judged;
  return judgePost(viewer.id, kind, declaredLength(request.headers.get("content-length")));
}

/** Refused by `ensureRoomForFiles` inside the transaction that stores the files. */
export class AttachmentQuotaExceeded extends Error {
  constructor() {
    super("attachment quota exceeded");
  }
}

/**
 * With the real sizes, in the transaction that stores them: one customer's stores wait for each
 * other (a transaction-scoped lock), so concurrent posts cannot each fit and together overflow.
 */
export async function ensureRoomForFiles(tx: Tx, userId: string, bytes: number) {
  if (bytes === 0) return;
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`ticket-quota:${userId}`}, 0))`,
  );
  if ((await storedAttachmentBytes(userId, tx)) + bytes > ATTACHMENT_QUOTA_BYTES)
    throw new AttachmentQuotaExceeded();
}
