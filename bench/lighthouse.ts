import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { CHROMIUM_FLAGS, SYSTEM_CHROMIUM } from "../tests/support/chromium";

export type LighthouseFigures = {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
  scriptBytes: number;
};

/** Median of the runs that produced the figure (a run can miss one, e.g. no LCP). */
function median(values: number[]): number {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.floor(sorted.length / 2)]!;
}

/** One Lighthouse run's figures. */
async function measure(url: string, port: number): Promise<LighthouseFigures> {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error" });
  const lhr = result!.lhr;
  const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
  const items =
    (
      lhr.audits["resource-summary"]?.details as {
        items?: { resourceType: string; transferSize: number }[];
      }
    )?.items ?? [];
  return {
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    bestPractices: Math.round((lhr.categories["best-practices"]?.score ?? 0) * 100),
    seo: Math.round((lhr.categories.seo?.score ?? 0) * 100),
    lcpMs: Math.round(audit("largest-contentful-paint")),
    tbtMs: Math.round(audit("total-blocking-time")),
    cls: Math.round(audit("cumulative-layout-shift") * 1000) / 1000,
    bytes: items.find((item) => item.resourceType === "total")?.transferSize ?? 0,
    scriptBytes: items.find((item) => item.resourceType === "script")?.transferSize ?? 0,
  };
}

/**
 * Lighthouse's default (mobile, simulated throttling) on each URL; medians of `runs`, by URL.
 * The URLs take turns (A B C A B C …) after one run that is not counted (a new browser's first
 * page is slower): a page is never measured in a quieter or busier stretch than the others, so
 * a site page and its static copy can be compared (decision 056).
 */
export async function runLighthouse(
  urls: string[],
  runs: number,
): Promise<Record<string, LighthouseFigures>> {
  const chrome = await chromeLauncher.launch({
    chromePath: SYSTEM_CHROMIUM,
    chromeFlags: ["--headless=new", ...CHROMIUM_FLAGS],
  });
  try {
    await measure(urls[0]!, chrome.port);
    const samples = new Map<string, LighthouseFigures[]>(urls.map((url) => [url, []]));
    for (let run = 0; run < runs; run++)
      for (const url of urls) samples.get(url)!.push(await measure(url, chrome.port));
    const results: Record<string, LighthouseFigures> = {};
    for (const [url, figures] of samples) {
      const pick = (key: keyof LighthouseFigures) => median(figures.map((sample) => sample[key]));
      results[url] = {
        performance: pick("performance"),
        accessibility: pick("accessibility"),
        bestPractices: pick("bestPractices"),
        seo: pick("seo"),
        lcpMs: pick("lcpMs"),
        tbtMs: pick("tbtMs"),
        cls: pick("cls"),
        bytes: pick("bytes"),
        scriptBytes: pick("scriptBytes"),
      };
    }
    return results;
  } finally {
    await chrome.kill();
  }
}
