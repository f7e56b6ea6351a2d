import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * What the server loads before it is ready: the server bundle evaluates server-entry.ts,
 * server.ts, the root, the entry and every route module, and with them every module they import statically. The
 * packages below are loaded on first use instead (a dynamic `import()`), each costing tens to
 * hundreds of milliseconds of every start (decision 039; Better Auth and Stripe since 008).
 */
const LOADED_ON_FIRST_USE = [
  "pdfkit",
  "qrcode",
  "file-type",
  "nodemailer",
  "stripe",
  "better-auth",
  "better-auth/api",
  "better-auth/adapters/drizzle",
  "@zxcvbn-ts/language-common",
  "recharts",
  // Only when METRICS_PORT/METRICS_TOKEN or SENTRY_DSN ask for them (decision 049).
  "prom-client",
  "@sentry/node",
];

const root = path.resolve(import.meta.dirname, "../..");

function startModules(): string[] {
  const routes = path.join(root, "app/routes");
  return [
    path.join(root, "server-entry.ts"),
    path.join(root, "server.ts"),
    path.join(root, "app/root.tsx"),
    path.join(root, "app/entry.server.tsx"),
    ...readdirSync(routes)
      .filter((name) => /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name))
      .map((name) => path.join(routes, name)),
  ];
}

/**
 * The specifiers a module loads when it is evaluated: its imports and re-exports, less those
 * of types only (`import type`, erased by the build), less dynamic `import()`.
 */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((statement) => {
    if (ts.isImportDeclaration(statement) && !statement.importClause?.isTypeOnly)
      return [(statement.moduleSpecifier as ts.StringLiteral).text];
    if (
      ts.isExportDeclaration(statement) &&
      !statement.isTypeOnly &&
      statement.moduleSpecifier !== undefined
    )
      return [(statement.moduleSpecifier as ts.StringLiteral).text];
    return [];
  });
}

/** A specifier of our own code as its file; undefined for a package (or a `?raw` asset). */
function ownFile(specifier: string, from: string): string | undefined {
  const base = specifier.startsWith("~/")
    ? path.join(root, "app", specifier.slice(2))
    : specifier.startsWith(".")
      ? path.resolve(path.dirname(from), specifier)
      : undefined;
  if (!base) return undefined;
  return ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]
    .map((ending) => base + ending)
    .find((candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate));
}

/** Our own files loaded with the start modules. */
const filesLoadedAtStart = new Set<string>();

/** Every package loaded with the start modules, with the first module found importing it. */
function packagesLoadedAtStart(): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = filesLoadedAtStart;
  const queue = startModules();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      const own = ownFile(specifier, file);
      if (own) queue.push(own);
      else if (!/^[.~]/.test(specifier) && !specifier.includes("?") && !packages.has(specifier))
        packages.set(specifier, path.relative(root, file));
    }
  }
  return packages;
}

describe("the server's start", () => {
  const loaded = packagesLoadedAtStart();

  it("finds the packages the start does load (the walk itself works)", () => {
    expect([...loaded.keys()]).toEqual(
      expect.arrayContaining(["express", "@electric-sql/pglite", "react-router"]),
    );
  });

  it("loads no local service (the AEAT stand-in): server.ts imports it only when configured", () => {
    const local = [...filesLoadedAtStart]
      .map((file) => path.relative(root, file))
      .filter((file) => file.startsWith("local-services/"));
    expect(local).toEqual([]);
    // The walk does reach server.ts, which names the stand-in in a dynamic import().
    expect(readFileSync(path.join(root, "server.ts"), "utf8")).toContain(
      'import("./local-services/aeat-stand-in.server")',
    );
  });

  it("loads the heavy packages on first use, not at start", () => {
    const early = LOADED_ON_FIRST_USE.filter((name) => loaded.has(name)).map(
      (name) => `${name} (imported by ${loaded.get(name)})`,
    );
    expect(early).toEqual([]);
  });
});
