import { getConfig } from "~/platform/config.server";
import { humanCheckEnabled } from "~/platform/human-check/human-check.server";
import type { SiteInfo } from "./site";

export function getSiteInfo(): SiteInfo {
  return {
    ...getConfig().company,
    year: new Date().getFullYear(),
    humanCheck: humanCheckEnabled(),
  };
}
