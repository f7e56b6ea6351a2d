import { eq } from "drizzle-orm";
import { redirect } from "react-router";
import type { Database } from "~/platform/db/client.server";
import { getDb } from "~/platform/db/database.server";
import { sessions, userRoles } from "~/platform/db/schema";
import { unlessDatabaseAway } from "~/platform/http/maintenance.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { safeReturnPath, withReturnPath } from "./return-path";
import { getAuth, hasSessionCookie, SESSION_ABSOLUTE_LIFETIME_MS } from "./auth.server";
import { identityMessages } from "./identity-rules";
import {
  idleFor,
  noteSessionActivity,
  STAFF_IDLE_LIMIT_MS,
  type SessionTimes,
} from "./session-activity.server";
import { hasSecondFactor } from "./second-factor.server";
import { isStaffRole, staffCan, type StaffCapability, type StaffRole } from "./staff-roles";

/** What pages may know about the signed-in visitor. */
export type Viewer = { id: string; email: string; emailVerified: boolean; createdAt: string };

/**
 * The signed-in user of a request, and the headers to pass on: reading the session may renew it
 * (7 days, renewed daily while in use), which sets a fresh cookie. A session past its absolute
 * lifetime is ended here instead, and the headers clear its cookie. With the database away the
 * lookup throws the maintenance page (503).
 */
export async function getViewer(request: Request): Promise<ViewerRead> {
  if (!isPageRead(request)) return readViewer(request);
  let read = viewerReads.get(request);
  if (!read) {
    read = readViewer(request);
    viewerReads.set(request, read);
  }
  const { headers, ...rest } = await read;
  return { ...rest, headers: new Headers(headers) };
}

type ViewerRead = { viewer: Viewer | null; headers: Headers; ended?: true };

/**
 * A page's loaders (the root's and the route's) run at once with one request, and each asks who
 * is signing in: they share one read of the session and of the role (issue 38). Only reads:
 * an action may change the session, so it always reads afresh.
 */
const viewerReads = new WeakMap<Request, Promise<ViewerRead>>();
const roleReads = new WeakMap<Request, Promise<StaffRole | null>>();
const isPageRead = (request: Request) => request.method === "GET" || request.method === "HEAD";

/** `staffRoleOf` the request's viewer, read once per page request. */
export function viewerRoleOf(request: Request, viewer: Viewer): Promise<StaffRole | null> {
  if (!isPageRead(request)) return staffRoleOf(viewer.id);
  let read = roleReads.get(request);
  if (!read) {
    read = staffRoleOf(viewer.id);
    roleReads.set(request, read);
  }
  return read;
}

async function readViewer(request: Request): Promise<ViewerRead> {
  if (!hasSessionCookie(request)) return { viewer: null, headers: new Headers() };
  // While the database is away a signed-in page is in maintenance (503), not signed out.
  const { headers, response } = await unlessDatabaseAway(async () =>
    (await getAuth()).api.getSession({ headers: request.headers, returnHeaders: true }),
  );
  if (response && (await outlived(response.session, response.user.id)))
    return { viewer: null, headers: await signOutHeaders(request), ended: true };
  if (response) await noteSessionActivity(response.session);
  const user = response?.user;
  return {
    viewer: user
      ? {
          id: user.id,
          email: user.email,
          emailVerified: user.emailVerified,
          createdAt: new Date(user.createdAt).toISOString(),
        }
      : null,
    headers,
  };
}

/**
 * Renewal keeps an active session alive, so the age since sign-in is checked on every read:
 * 30 days for anyone, 12 hours for staff of any role; and a staff session unused for 30
 * minutes ends too (decision 045). The role is looked up only past a staff limit.
 */
async function outlived(session: SessionTimes, userId: string): Promise<boolean> {
  const age = Date.now() - new Date(session.createdAt).getTime();
  if (age > SESSION_ABSOLUTE_LIFETIME_MS.any) return true;
  const pastStaffLimit =
    age > SESSION_ABSOLUTE_LIFETIME_MS.admin || idleFor(session) > STAFF_IDLE_LIMIT_MS;
  return pastStaffLimit && (await staffRoleOf(userId)) !== null;
}

/**
 * No session goes to /login-cliente; a page asked for (GET) comes back after the sign-in, as
 * `?volver=<path and query>`. Posts go to the plain login: their page would not take a GET.
 */
export async function requireCustomer(request: Request): Promise<Viewer> {
  const { viewer } = await getViewer(request);
  if (!viewer) throw redirect(customerLoginFor(request));
  return viewer;
}

function customerLoginFor(request: Request): string {
  if (request.method !== "GET") return "/login-cliente";
  const url = new URL(request.url);
  const asked = safeReturnPath(`${url.pathname}${url.search}`, "");
  return withReturnPath("/login-cliente", asked);
}

/** The account's staff role (one at most), or null for a customer. */
export async function staffRoleOf(
  userId: string,
  db: Pick<Database, "select"> = getDb(),
): Promise<StaffRole | null> {
  const [row] = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(eq(userRoles.userId, userId));
  return isStaffRole(row?.role) ? row.role : null;
}

/**
 * A signed-in staff member as the staff's loaders and actions know them: their role, and where
 * the request comes from (the client address as Express read it, and the browser's User-Agent),
 * which the audit log records with each of their actions.
 */
export type Staff = Viewer & { role: StaffRole; clientAddress: string; userAgent: string | null };

/** What a staff guard reads: the request and the address of its client (the load context). */
export type StaffRequest = { request: Request; context: { clientAddress: string } };

/**
 * Every staff loader and action calls this, with the capability it needs
 * (identity/staff-roles.ts) or none when the feature checks one per intent with
 * `requireCapability`. No session goes to /login ('Debes iniciar sesión'); a session without
 * a staff role goes there with 'Acceso denegado', and is ended on the server (the spec's rule)
 * only when the request is a navigation within this site (`Sec-Fetch-Site: same-origin`). A
 * missing header, another site's link (cross-site, same-site) or a link opened from a mail or
 * chat application (`none`) never signs anyone out: anyone can send those. A staff account
 * without a second factor goes to /admin/seguridad to enrol one (decision 044). A staff member
 * whose role lacks the capability gets 403 (decision 043), before anything is read.
 */
export async function requireStaff(
  args: StaffRequest,
  capability?: StaffCapability,
): Promise<Staff> {
  const staff = await requireStaffEnrolling(args);
  // A staff account without a second factor opens no staff page, download or post: it is sent
  // to enrol one first (decision 044), whatever it asked for.
  if (!(await hasSecondFactor(staff.id))) {
    throw await redirectWithToast(SECOND_FACTOR_ENROLMENT_PATH, {
      kind: "info",
      ...identityMessages.secondFactorRequired,
    });
  }
  if (capability) requireCapability(staff, capability);
  return staff;
}

/** Where a staff account enrols its second factor: the one staff page open without one. */
export const SECOND_FACTOR_ENROLMENT_PATH = "/admin/seguridad";

/**
 * `requireStaff` without the second factor: only for the page where staff enrol it
 * (/admin/seguridad). Everything else of the staff calls `requireStaff`.
 */
export async function requireStaffEnrolling({ request, context }: StaffRequest): Promise<Staff> {
  const { viewer, headers: ending, ended } = await getViewer(request);
  if (!viewer) {
    // A session that just ended (idle 30 minutes, or 12 hours old) says so, and drops its cookie.
    throw await redirectWithToast(
      "/login",
      {
        kind: "error",
        ...identityMessages[ended ? "staffSessionEnded" : "adminSessionRequired"],
      },
      { headers: ended ? ending : undefined },
    );
  }
  const role = await viewerRoleOf(request, viewer);
  if (!role) {
    const fromThisSite = request.headers.get("Sec-Fetch-Site") === "same-origin";
    const headers = fromThisSite ? await signOutHeaders(request) : undefined;
    throw await redirectWithToast(
      "/login",
      { kind: "error", ...identityMessages.accessDenied },
      { headers },
    );
  }
  return {
    ...viewer,
    role,
    clientAddress: context.clientAddress,
    userAgent: request.headers.get("User-Agent"),
  };
}

/**
 * Throws 403 unless `staff`'s role has `capability` (identity/staff-roles.ts): a plain answer a
 * download gets as it is, and a page's error boundary shows as 'Sin permiso'.
 */
export function requireCapability(staff: { role: StaffRole }, capability: StaffCapability) {
  if (!staffCan(staff.role, capability))
    throw new Response(identityMessages.staffForbidden.title, {
      status: 403,
      headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
    });
}

/** Ends the request's session on the server and returns the headers that clear its cookie. */
export async function signOutHeaders(request: Request): Promise<Headers> {
  const { headers } = await (
    await getAuth()
  ).api.signOut({
    headers: request.headers,
    returnHeaders: true,
  });
  return headers;
}

/** Ends one session by its token (the admin login refuses a session it just created). */
export async function revokeSessionToken(token: string) {
  await getDb().delete(sessions).where(eq(sessions.token, token));
}
