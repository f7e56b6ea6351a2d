import type { CompanyDetails } from "~/features/legal/legal-document";

/** Public facts about the site, sent by the root loader to every page. */
export type SiteInfo = CompanyDetails & {
  year: number;
  /** Whether the public forms carry the proof-of-work check (HUMAN_CHECK). */
  humanCheck: boolean;
};

type MatchWithData = { id: string; loaderData?: unknown };

/** The site facts from the root route's data, for meta functions. */
export function siteFromMatches(
  matches: readonly (MatchWithData | undefined)[],
): SiteInfo | undefined {
  const root = matches.find((match) => match?.id === "root");
  const data = root?.loaderData as { site?: SiteInfo } | undefined;
  return data?.site;
}
