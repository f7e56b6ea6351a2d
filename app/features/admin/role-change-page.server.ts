import { eq } from "drizzle-orm";
import type { Staff } from "~/features/identity/session.server";
import { isStaffRole } from "~/features/identity/staff-roles";
import { users } from "~/platform/db/schema";
import { adminMessages, type AdminMessage } from "./admin-messages";
import { requestedRole, roleChangeQuestion, usersListHref } from "./role-change";
import { selectAccounts } from "./staff-view-of-accounts.server";

/** Account ids are the auth library's random strings. */
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

const notFound = () => new Response("Not Found", { status: 404 });

/**
 * GET /admin/usuarios/:userId/rol?rol=…: the confirmation of a role change, for a browser
 * without JavaScript (decision 054). It names the person and the role as the dialog does, and
 * says beforehand what the change would be refused for (one's own role, an unverified address);
 * the change itself is the panel's `set-role`, posted from here with its confirmation. An
 * account or role that does not exist is a 404.
 */
export async function roleChangePage(staff: Staff, userId: string, url: URL) {
  const role = requestedRole(url.searchParams.get("rol"));
  if (role === undefined || !USER_ID.test(userId)) throw notFound();
  const [user] = await selectAccounts().where(eq(users.id, userId));
  if (!user) throw notFound();
  const from = isStaffRole(user.role) ? user.role : null;
  // The rules setStaffRole enforces, said before the button instead of after it (the last
  // administrator needs the row lock: that refusal comes with the post).
  const refusal: AdminMessage | null =
    userId === staff.id ? "ownRole" : role && !user.emailVerified ? "unverifiedStaff" : null;
  return {
    userId,
    role,
    from,
    back: usersListHref(url.searchParams.get("volver")),
    question: roleChangeQuestion(user, from, role),
    refusal: refusal ? adminMessages[refusal] : null,
  };
}

export type RoleChangePageData = Awaited<ReturnType<typeof roleChangePage>>;
