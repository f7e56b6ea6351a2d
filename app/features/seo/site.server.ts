import { getConfig } from "~/platform/config.server";
import type { SiteInfo } from "./site";

export function getSiteInfo(): SiteInfo {
  return { ...getConfig().company, year: new Date().getFullYear() };
}
