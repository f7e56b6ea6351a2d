import { sql } from "drizzle-orm";
import { SITE_TIME_ZONE } from "~/platform/dates";

/** The first instant of a Spanish calendar day (AAAA-MM-DD), for a query's period. */
export const startOfSiteDay = (day: string) =>
  sql`((${day})::date)::timestamp at time zone ${SITE_TIME_ZONE}`;

/** The first instant of the day after a Spanish calendar day: a period's end, excluded. */
export const startOfNextSiteDay = (day: string) =>
  sql`((${day})::date + 1)::timestamp at time zone ${SITE_TIME_ZONE}`;
