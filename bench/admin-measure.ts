/** Measuring helpers of `npm run bench:admin`: timed requests, percentiles, a process's memory. */
import { readFileSync, writeFileSync } from "node:fs";

/** Nearest-rank percentile of samples in milliseconds, one decimal. */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[rank]! * 10) / 10;
}

export type Timed = { ms: number; status: number; body: string };

/** One GET as the signed-in browser sends it, timed until the whole body has arrived. */
export async function timedGet(url: string, cookie: string): Promise<Timed> {
  const started = performance.now();
  const response = await fetch(url, {
    headers: { cookie, accept: "text/html", "accept-encoding": "gzip, br" },
    redirect: "manual",
  });
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, body };
}

/** Resident memory of a process (VmRSS) and its peak since the last reset (VmHWM), in kB. */
export function memoryOf(pid: number): { rssKb: number; peakKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1]);
  return { rssKb: field("VmRSS"), peakKb: field("VmHWM") };
}

/** Starts the kernel's peak count (VmHWM) again from the current resident size. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS every `everyMs` until stopped; returns the highest sample. */
export function sampleRss(pid: number, everyMs = 50) {
  let peakKb = memoryOf(pid).rssKb;
  let samples = 1;
  const timer = setInterval(() => {
    try {
      peakKb = Math.max(peakKb, memoryOf(pid).rssKb);
      samples++;
    } catch {
      // the process is gone: keep what was seen
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { peakKb, samples };
    },
  };
}

export const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;
