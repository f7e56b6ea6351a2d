import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import type { Viewer } from "~/features/identity/session.server";
import { getDb } from "~/platform/db/database.server";
import { contactInquiries } from "~/platform/db/schema";
import { readForm, refuse as refuseForm } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { adminMessages, type AdminMessage } from "./admin-messages";
import { grantAdmin, revokeAdmin, type RoleChange } from "./admin-roles.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Account ids are the auth library's random strings. */
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** HTTP status of each refusal: a missing row is 404, a rule that says no is 409. */
const refusalStatus: Partial<Record<AdminMessage, number>> = {
  inquiryNotFound: 404,
  userNotFound: 404,
  lastAdmin: 409,
  ownRole: 409,
  unverifiedAdmin: 409,
  saveFailed: 503,
};

/** Refuses a change with one of the panel's messages (`adminMessages`). */
function refuse(reason: AdminMessage) {
  return refuseForm(reason, { status: refusalStatus[reason] ?? 400 });
}

/**
 * The panel's changes, posted to the panel's own address: mark an enquiry handled or pending,
 * grant or revoke the administrator role. Success goes back to the same list, page and dialog
 * with a toast; a refusal answers 4xx with its Spanish message.
 */
export async function adminAction(request: Request, staff: Viewer) {
  const form = (await readForm(request))?.fields;
  const back = `/admin${new URL(request.url).search}`;
  try {
    switch (form?.intent) {
      case "inquiry-handled":
      case "inquiry-pending": {
        const inquiryId = form.inquiryId ?? "";
        if (!UUID.test(inquiryId)) return refuse("invalidRequest");
        const handled = form.intent === "inquiry-handled";
        if (!(await markInquiry(inquiryId, staff.id, handled))) return refuse("inquiryNotFound");
        return redirectWithToast(back, {
          kind: "success",
          ...adminMessages[handled ? "inquiryHandled" : "inquiryPending"],
        });
      }
      case "grant-admin":
      case "revoke-admin": {
        const userId = form.userId ?? "";
        if (!USER_ID.test(userId)) return refuse("invalidRequest");
        const grant = form.intent === "grant-admin";
        const change: RoleChange = grant
          ? await grantAdmin(getDb(), staff.id, userId)
          : await revokeAdmin(getDb(), staff.id, userId);
        if (!change.ok) return refuse(change.reason);
        return redirectWithToast(back, {
          kind: "success",
          ...adminMessages[grant ? "adminGranted" : "adminRevoked"],
        });
      }
      default:
        return refuse("invalidRequest");
    }
  } catch (error) {
    getLogger().error({ err: error }, "an admin panel change failed");
    return refuse("saveFailed");
  }
}

/** True when the enquiry exists; marking it again keeps who handled it first, and when. */
async function markInquiry(id: string, staffId: string, handled: boolean): Promise<boolean> {
  const db = getDb();
  await db
    .update(contactInquiries)
    .set(
      handled
        ? { handledAt: sql`now()`, handledBy: staffId }
        : { handledAt: null, handledBy: null },
    )
    .where(
      and(
        eq(contactInquiries.id, id),
        handled ? isNull(contactInquiries.handledAt) : isNotNull(contactInquiries.handledAt),
      ),
    );
  const [found] = await db
    .select({ id: contactInquiries.id })
    .from(contactInquiries)
    .where(eq(contactInquiries.id, id));
  return Boolean(found);
}
