import { getMailWorker } from "~/platform/mail/mailer.server";
import { and, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { recordStaffAction } from "~/features/audit/audit.server";
import { requireCapability, type Staff } from "~/features/identity/session.server";
import { removeSecondFactor } from "~/features/identity/second-factor.server";
import { requireRecentAuthentication } from "~/features/identity/step-up.server";
import { isStaffRole, type StaffCapability } from "~/features/identity/staff-roles";
import { getDb } from "~/platform/db/database.server";
import { contactInquiries, sessions, users } from "~/platform/db/schema";
import { readForm, refuse as refuseForm } from "~/platform/http/form-reply.server";
import { redirectWithToast } from "~/platform/http/toast.server";
import { getLogger } from "~/platform/logger.server";
import { adminMessages, type AdminMessage } from "./admin-messages";
import { setStaffRole } from "./admin-roles.server";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Account ids are the auth library's random strings. */
const USER_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The capability each of the panel's changes needs (identity/staff-roles.ts). */
const intentCapabilities = new Map<string, StaffCapability>([
  ["inquiry-handled", "enquiries.handle"],
  ["inquiry-pending", "enquiries.handle"],
  ["set-role", "roles.manage"],
  ["reset-second-factor", "factors.reset"],
  ["end-sessions", "sessions.end"],
]);

/** HTTP status of each refusal: a missing row is 404, a rule that says no is 409. */
const refusalStatus: Partial<Record<AdminMessage, number>> = {
  inquiryNotFound: 404,
  userNotFound: 404,
  noSecondFactor: 404,
  ownSecondFactor: 409,
  ownSessions: 409,
  lastAdmin: 409,
  ownRole: 409,
  unverifiedStaff: 409,
  saveFailed: 503,
};

/** Refuses a change with one of the panel's messages (`adminMessages`). */
function refuse(reason: AdminMessage) {
  return refuseForm(reason, { status: refusalStatus[reason] ?? 400 });
}

/**
 * The panel's changes, posted to the panel's own address: mark an enquiry handled or pending,
 * give or take a staff role. Each needs its capability (403 without it, before anything is
 * read). Success goes back to the same list, page and dialog with a toast; a refusal answers
 * 4xx with its Spanish message. Each change writes its audit row in its own transaction.
 */
export async function adminAction(request: Request, staff: Staff) {
  const form = (await readForm(request))?.fields;
  const capability = intentCapabilities.get(form?.intent ?? "");
  if (capability) requireCapability(staff, capability);
  const back = `/admin${new URL(request.url).search}`;
  if (STEP_UP_INTENTS.has(form?.intent ?? ""))
    await requireRecentAuthentication(request, { fallback: back });
  try {
    switch (form?.intent) {
      case "inquiry-handled":
      case "inquiry-pending": {
        const inquiryId = form.inquiryId ?? "";
        if (!UUID.test(inquiryId)) return refuse("invalidRequest");
        const handled = form.intent === "inquiry-handled";
        if (!(await markInquiry(inquiryId, staff, handled))) return refuse("inquiryNotFound");
        return redirectWithToast(back, {
          kind: "success",
          ...adminMessages[handled ? "inquiryHandled" : "inquiryPending"],
        });
      }
      case "set-role": {
        const userId = form.userId ?? "";
        const role = form.role ?? "";
        if (!USER_ID.test(userId) || (role !== "" && !isStaffRole(role)))
          return refuse("invalidRequest");
        if (form.confirm !== "yes") return refuse("confirmRoleChange");
        const change = await setStaffRole(getDb(), staff, userId, role || null);
        if (!change.ok) return refuse(change.reason);
        getMailWorker().wake();
        return redirectWithToast(back, { kind: "success", ...adminMessages.roleChanged });
      }
      case "reset-second-factor": {
        const userId = form.userId ?? "";
        if (!USER_ID.test(userId)) return refuse("invalidRequest");
        if (form.confirm !== "yes") return refuse("confirmSecondFactorReset");
        if (userId === staff.id) return refuse("ownSecondFactor");
        if (!(await resetSecondFactor(staff, userId))) return refuse("noSecondFactor");
        return redirectWithToast(back, { kind: "success", ...adminMessages.secondFactorReset });
      }
      case "end-sessions": {
        const userId = form.userId ?? "";
        if (!USER_ID.test(userId)) return refuse("invalidRequest");
        if (form.confirm !== "yes") return refuse("confirmEndSessions");
        if (userId === staff.id) return refuse("ownSessions");
        if (!(await endSessionsOf(staff, userId))) return refuse("userNotFound");
        return redirectWithToast(back, { kind: "success", ...adminMessages.sessionsEnded });
      }
      default:
        return refuse("invalidRequest");
    }
  } catch (error) {
    getLogger().error({ err: error }, "an admin panel change failed");
    return refuse("saveFailed");
  }
}

/** Who may do what, whose factor goes, who is signed out: proved again first (decision 063). */
const STEP_UP_INTENTS = new Set(["set-role", "reset-second-factor", "end-sessions"]);

/**
 * Every session of another account ends (a stolen laptop, a person who left), with its audit
 * row naming how many, in one transaction. False when the account does not exist.
 */
async function endSessionsOf(staff: Staff, userId: string): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
    if (!account) return false;
    const ended = await tx
      .delete(sessions)
      .where(eq(sessions.userId, userId))
      .returning({ id: sessions.id });
    await recordStaffAction(tx, {
      actor: staff,
      action: "session.ended_by_admin",
      target: userId,
      details: { sesiones: ended.length },
    });
    return true;
  });
}

/**
 * Another account's lost second factor, reset by an administrator (decision 044): its TOTP and
 * recovery codes go and its sessions end, with the audit row, in one transaction. False when
 * the account had none (or does not exist).
 */
async function resetSecondFactor(staff: Staff, userId: string): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    if (!(await removeSecondFactor(tx, userId))) return false;
    await recordStaffAction(tx, {
      actor: staff,
      action: "factor.reset",
      target: userId,
      details: { factor: "totp" },
    });
    return true;
  });
}

/**
 * True when the enquiry exists; marking it again keeps who handled it first, and when. A change
 * (not a repeat) is written to the audit log with it.
 */
async function markInquiry(id: string, staff: Staff, handled: boolean): Promise<boolean> {
  return getDb().transaction(async (tx) => {
    const changed = await tx
      .update(contactInquiries)
      .set(
        handled
          ? { handledAt: sql`now()`, handledBy: staff.id }
          : { handledAt: null, handledBy: null },
      )
      .where(
        and(
          eq(contactInquiries.id, id),
          handled ? isNull(contactInquiries.handledAt) : isNotNull(contactInquiries.handledAt),
        ),
      )
      .returning({ id: contactInquiries.id });
    if (changed.length > 0) {
      await recordStaffAction(tx, {
        actor: staff,
        action: handled ? "enquiry.handled" : "enquiry.pending",
        target: id,
      });
      return true;
    }
    const [found] = await tx
      .select({ id: contactInquiries.id })
      .from(contactInquiries)
      .where(eq(contactInquiries.id, id));
    return Boolean(found);
  });
}
