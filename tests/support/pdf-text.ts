import { execFile } from "node:child_process";

/** A PDF's text as poppler's pdftotext reads it (layout kept), the way a reader copies it. */
export function pdfText(pdf: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile("pdftotext", ["-layout", "-", "-"], (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
    child.stdin!.end(pdf);
  });
}
