import { useRouteLoaderData } from "react-router";

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
};

export function usePageViewer(): PageViewer | null {
  const root = useRouteLoaderData("root") as { viewer?: PageViewer | null } | undefined;
  return root?.viewer ?? null;
}
