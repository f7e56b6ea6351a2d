import { eq } from "drizzle-orm";
import { getDb } from "~/platform/db/database.server";
import { profiles } from "~/platform/db/schema";
import type { Viewer } from "./session.server";

/** The fields a customer edits on /perfil; null is "not given". */
export type EditableProfile = {
  fullName: string | null;
  phone: string | null;
  company: string | null;
  bio: string | null;
};

const noProfile: EditableProfile = { fullName: null, phone: null, company: null, bio: null };

export async function profileOf(viewer: Viewer): Promise<EditableProfile> {
  const [profile] = await getDb()
    .select({
      fullName: profiles.fullName,
      phone: profiles.phone,
      company: profiles.company,
      bio: profiles.bio,
    })
    .from(profiles)
    .where(eq(profiles.id, viewer.id));
  return profile ?? noProfile;
}

/** The /perfil page: the signed-in customer and what they can edit. */
export async function profilePage(viewer: Viewer) {
  return { viewer, profile: await profileOf(viewer) };
}

/** Stores the edited fields (empty ones as null), creating the profile if it was never saved. */
export async function storeProfile(viewer: Viewer, edited: Record<keyof EditableProfile, string>) {
  const values = Object.fromEntries(
    Object.entries(edited).map(([field, value]) => [field, value || null]),
  ) as EditableProfile;
  await getDb()
    .insert(profiles)
    .values({ id: viewer.id, email: viewer.email, ...values })
    .onConflictDoUpdate({ target: profiles.id, set: { ...values, updatedAt: new Date() } });
}
