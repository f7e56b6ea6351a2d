import { useRouteLoaderData } from "react-router";
import type { StaffRole } from "./staff-roles";

/**
 * What every page knows of the signed-in visitor, from the root loader: enough to pre-fill a
 * form or choose a dialog's state. Never part of a page kept in the shared page cache, which is
 * rendered for anonymous visitors only.
 */
export type PageViewer = {
  email: string;
  emailVerified: boolean;
  /** The profile's full name, when the customer has given one. */
  fullName: string | null;
  /** The staff role (the admin shell shows the sections it may open); null for a customer. */
  staffRole: StaffRole | null;
};

export function usePageViewer(): PageViewer | null {
  const root = useRouteLoaderData("root") as { viewer?: PageViewer | null } | undefined;
  return root?.viewer ?? null;
}
