import { and, desc, eq, gt, isNull, lt, ne, or, sql } from "drizzle-orm";
import { getDb } from "~/platform/db/database.server";
import { sessions } from "~/platform/db/schema";
import { getAuth } from "./auth.server";

/**
 * A staff session unused this long ends (decision 045; OWASP ASVS 5.0 V7.3.1: an inactivity
 * timeout, and V7.3.2: an absolute one, which is SESSION_ABSOLUTE_LIFETIME_MS). Customers keep
 * their sliding 7 days.
 */
export const STAFF_IDLE_LIMIT_MS = 30 * 60_000;

/**
 * `last_seen_at` is written at most this often: a session read many times a minute costs one
 * UPDATE a minute, not one per request. Idle time is therefore measured up to a minute long,
 * which ends a session at most a minute early, never late.
 */
export const LAST_SEEN_WRITE_INTERVAL_MS = 60_000;

/** The times of a session that its idle rule reads, as Better Auth returns them. */
export type SessionTimes = {
  id: string;
  createdAt: Date | string;
  lastSeenAt?: Date | string | null;
};

const lastSeen = (session: SessionTimes) =>
  new Date(session.lastSeenAt ?? session.createdAt).getTime();

/** How long the session has gone unused, as far as the server knows. */
export function idleFor(session: SessionTimes, now = Date.now()): number {
  return now - lastSeen(session);
}

/**
 * Records that the session was used now, unless that was recorded less than a minute ago. The
 * condition is in the statement too, so parallel requests of one page write once.
 */
export async function noteSessionActivity(session: SessionTimes) {
  if (idleFor(session) < LAST_SEEN_WRITE_INTERVAL_MS) return;
  const writtenBefore = new Date(Date.now() - LAST_SEEN_WRITE_INTERVAL_MS);
  await getDb()
    .update(sessions)
    .set({ lastSeenAt: sql`now()` })
    .where(
      and(
        eq(sessions.id, session.id),
        or(isNull(sessions.lastSeenAt), lt(sessions.lastSeenAt, writtenBefore)),
      ),
    );
}

/** One of the account's sessions as the list of active sessions shows it. */
export type ActiveSession = {
  id: string;
  userAgent: string | null;
  ipAddress: string | null;
  createdAt: string;
  lastSeenAt: string;
  current: boolean;
};

/**
 * The account's sessions that have not expired, the most recently used first. A staff
 * session idle past its limit is not listed: it ends on its next request anyway.
 */
export async function listActiveSessions(
  userId: string,
  currentSessionId: string | null,
  { staff }: { staff: boolean },
): Promise<ActiveSession[]> {
  const now = Date.now();
  const rows = await getDb()
    .select({
      id: sessions.id,
      userAgent: sessions.userAgent,
      ipAddress: sessions.ipAddress,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date(now))))
    .orderBy(desc(sql`coalesce(${sessions.lastSeenAt}, ${sessions.createdAt})`), desc(sessions.id));
  return rows
    .filter(
      (row) => !staff || row.id === currentSessionId || idleFor(row, now) <= STAFF_IDLE_LIMIT_MS,
    )
    .map((row) => ({
      id: row.id,
      userAgent: row.userAgent,
      ipAddress: row.ipAddress,
      createdAt: row.createdAt.toISOString(),
      lastSeenAt: new Date(lastSeen(row)).toISOString(),
      current: row.id === currentSessionId,
    }));
}

/** Ends one of the account's sessions; false when it has no such session (or not any more). */
export async function revokeSession(userId: string, sessionId: string): Promise<boolean> {
  const ended = await getDb()
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, sessionId)))
    .returning({ id: sessions.id });
  return ended.length > 0;
}

/** Ends every session of the account (or every one but `except`); answers how many ended. */
export async function revokeAllSessions(userId: string, except?: string): Promise<number> {
  const ended = await getDb()
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), except ? ne(sessions.id, except) : undefined))
    .returning({ id: sessions.id });
  return ended.length;
}

/** The id of the request's session, read through Better Auth (the cookie is signed). */
export async function currentSessionId(request: Request): Promise<string | null> {
  const found = await (await getAuth()).api.getSession({ headers: request.headers });
  return found?.session.id ?? null;
}
