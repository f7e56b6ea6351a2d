const HTML_ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
import { SITE_LOCALE } from "~/platform/locale";

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

/** Escaped text with its line breaks kept. */
export function escapeMultiline(value: string): string {
  return escapeHtml(value).replace(/\r?\n/g, "<br>");
}

/** Header values (subjects) on one line: user text must not add headers or break the subject. */
export function singleLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/** The links of an HTML mail, for the dev mailbox and its log line. */
export function extractLinks(html: string): string[] {
  const links = [...html.matchAll(/href="([^"]+)"/g)].map((match) =>
    match[1]!.replace(/&amp;/g, "&"),
  );
  return [...new Set(links)];
}

type LayoutInput = {
  brandName: string;
  siteUrl: string;
  /** Hidden preview line shown by mail clients next to the subject. */
  preheader: string;
  /** Already-escaped HTML of the body. */
  bodyHtml: string;
};

/** The shared frame of every mail: table layout and inline styles, as mail clients need. */
export function renderMailLayout({ brandName, siteUrl, preheader, bodyHtml }: LayoutInput): string {
  const brand = escapeHtml(brandName);
  return `<!DOCTYPE html>
<html lang="${SITE_LOCALE.lang}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${brand}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:Arial,Helvetica,sans-serif;color:#0f172a;">
<span style="display:none;max-height:0;overflow:hidden;">${escapeHtml(preheader)}</span>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 0;">
<tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:12px;overflow:hidden;">
<tr><td style="background:#1d41b0;padding:20px 32px;color:#ffffff;font-size:20px;font-weight:bold;">${brand}</td></tr>
<tr><td style="padding:32px;font-size:15px;line-height:1.6;">${bodyHtml}</td></tr>
<tr><td style="padding:20px 32px;background:#f8fafc;color:#64748b;font-size:12px;line-height:1.5;">
${brand} · <a href="${escapeHtml(siteUrl)}/" style="color:#1d41b0;">${escapeHtml(siteUrl.replace(/^https?:\/\//, ""))}</a>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>`;
}
