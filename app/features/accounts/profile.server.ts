import { eq } from "drizzle-orm";
import { getDb } from "~/platform/db/database.server";
import { profiles, userActivityLog } from "~/platform/db/schema";
import { getLogger } from "~/platform/logger.server";
import type { PageViewer } from "~/features/identity/page-viewer";
import { getViewer, viewerRoleOf, type Viewer } from "~/features/identity/session.server";

/** The fields a customer edits on /perfil; null is "not given". */
export type EditableProfile = {
  fullName: string | null;
  phone: string | null;
  company: string | null;
  bio: string | null;
  taxId: string | null;
  billingName: string | null;
  billingAddress: string | null;
};

/** The columns of the fields a customer edits, read the same way everywhere. */
const editableColumns = {
  fullName: profiles.fullName,
  phone: profiles.phone,
  company: profiles.company,
  bio: profiles.bio,
  taxId: profiles.taxId,
  billingName: profiles.billingName,
  billingAddress: profiles.billingAddress,
};

const noProfile: EditableProfile = {
  fullName: null,
  phone: null,
  company: null,
  bio: null,
  taxId: null,
  billingName: null,
  billingAddress: null,
};

export async function profileOf(viewer: Viewer): Promise<EditableProfile> {
  const [profile] = await getDb()
    .select(editableColumns)
    .from(profiles)
    .where(eq(profiles.id, viewer.id));
  return profile ?? noProfile;
}

/**
 * The root loader's viewer: the signed-in user with the profile's full name and their staff
 * role, if any (see PageViewer).
 */
export async function getPageViewer(
  request: Request,
): Promise<{ viewer: (Viewer & PageViewer) | null; headers: Headers }> {
  const { viewer, headers } = await getViewer(request);
  if (!viewer) return { viewer, headers };
  const [profile, staffRole] = await Promise.all([
    profileOf(viewer),
    viewerRoleOf(request, viewer),
  ]);
  return { viewer: { ...viewer, fullName: profile.fullName, staffRole }, headers };
}

/**
 * The /perfil page: the signed-in customer and what they can edit. When the profile cannot be
 * read the page still opens (logged; `profile` is null and the page says 'Error al cargar el
 * perfil'), so the customer can still verify the address or change the password.
 */
export async function profilePage(viewer: Viewer) {
  try {
    return { viewer, profile: await profileOf(viewer) };
  } catch (error) {
    getLogger().error({ err: error }, "loading a profile failed");
    return { viewer, profile: null };
  }
}

/** The fields of a profile save that differ from what was stored. */
function changedFields(before: EditableProfile, after: EditableProfile): string[] {
  return (Object.keys(after) as (keyof EditableProfile)[]).filter(
    (field) => before[field] !== after[field],
  );
}

/**
 * Stores the edited fields (empty ones as null), creating the profile if it was never saved, and
 * records the save in the activity log with the fields it changed (spec: 'profile_updated').
 */
export async function storeProfile(viewer: Viewer, edited: Record<keyof EditableProfile, string>) {
  const values = Object.fromEntries(
    Object.entries(edited).map(([field, value]) => [field, value || null]),
  ) as EditableProfile;
  await getDb().transaction(async (tx) => {
    const [before] = await tx
      .select(editableColumns)
      .from(profiles)
      .where(eq(profiles.id, viewer.id))
      .for("update");
    await tx
      .insert(profiles)
      .values({ id: viewer.id, email: viewer.email, ...values })
      .onConflictDoUpdate({ target: profiles.id, set: { ...values, updatedAt: new Date() } });
    await tx.insert(userActivityLog).values({
      userId: viewer.id,
      activityType: "profile_updated",
      description: "Perfil actualizado",
      metadata: { fields_updated: changedFields(before ?? noProfile, values) },
    });
  });
}
