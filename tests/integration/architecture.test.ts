import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { featureDependencies } from "../../feature-graph.js";

const root = path.resolve(import.meta.dirname, "../..");
const featuresDir = path.join(root, "app/features");
const graph: Record<string, readonly string[]> = featureDependencies;

/** A cycle in `edges` as the list of its nodes, or null when there is none. */
function findCycle(edges: Map<string, string[]>): string[] | null {
  const state = new Map<string, "open" | "done">();
  const trail: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === "done") return null;
    if (state.get(node) === "open") return [...trail.slice(trail.indexOf(node)), node];
    state.set(node, "open");
    trail.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    trail.pop();
    state.set(node, "done");
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files of app/ that `file` imports (static, dynamic and type imports alike). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)].map((m) => m[1]!);
  return specifiers.flatMap((specifier) => {
    const base = specifier.startsWith("~/")
      ? path.join(root, "app", specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(file), specifier)
        : null;
    if (!base) return [];
    const found = ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]
      .map((ending) => base + ending)
      .find((candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate));
    return found ? [found] : [];
  });
}

describe("the feature graph", () => {
  it("names every folder of app/features, and only those", () => {
    const folders = readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(Object.keys(graph).sort()).toEqual(folders);
    for (const allowed of Object.values(graph))
      for (const feature of allowed) expect(folders).toContain(feature);
  });

  it("is a DAG", () => {
    expect(findCycle(new Map(Object.entries(graph).map(([k, v]) => [k, [...v]])))).toBeNull();
  });

  it("finds a cycle when there is one (the check itself can fail)", () => {
    const cyclic = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
    ]);
    expect(findCycle(cyclic)).toEqual(["a", "b", "c", "a"]);
  });

  it("is the one docs/architecture.md draws: one row per folder with what it may import", () => {
    const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
    for (const [feature, allowed] of Object.entries(graph)) {
      const row = doc.split("\n").find((line) => line.startsWith(`| \`${feature}/\``));
      expect(row, `docs/architecture.md has no row for ${feature}/`).toBeDefined();
      const cells = row!.split("|").map((cell) => cell.trim());
      const listed = [...(cells[2] ?? "").matchAll(/`([a-z-]+)`/g)].map((m) => m[1]);
      expect(listed.sort(), `the arrows of ${feature}/ in docs/architecture.md`).toEqual(
        [...allowed].sort(),
      );
    }
  });
});

describe("docs/architecture.md's platform list", () => {
  it("names every folder and module of app/platform", () => {
    const doc = readFileSync(path.join(root, "docs/architecture.md"), "utf8");
    const list = doc.slice(doc.indexOf("- **`app/platform/` →"), doc.indexOf("- **`app/ui/` →"));
    const platform = path.join(root, "app/platform");
    const unnamed = readdirSync(platform, { withFileTypes: true })
      .filter((entry) => !/\.test\.tsx?$/.test(entry.name))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .filter((name) => !list.includes(`\`${name}`));
    expect(unnamed, "app/platform entries docs/architecture.md does not describe").toEqual([]);
  });
});

describe("imports", () => {
  it("form no cycle anywhere in app/", () => {
    const files = sourceFiles(path.join(root, "app"));
    const edges = new Map(files.map((file) => [file, importsOf(file)]));
    const cycle = findCycle(edges);
    expect(cycle?.map((file) => path.relative(root, file)) ?? null).toBeNull();
  });

  it("against the graph fail lint", async () => {
    const eslint = new ESLint({ cwd: root });
    const lint = async (file: string, code: string) => {
      const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
      return result!.messages.map((message) => message.ruleId);
    };
    // A feature reaching one it may not (through the alias, or climbing with ../).
    expect(
      await lint("app/features/catalogue/probe.ts", 'export { a } from "~/features/payments/x";\n'),
    ).toContain("no-restricted-imports");
    expect(
      await lint(
        "app/features/identity/probe.ts",
        'import { a } from "../accounts/x";\nexport const b = a;\n',
      ),
    ).toContain("no-restricted-imports");
    expect(
      await lint(
        "app/features/support/probe.ts",
        'import { a } from "~/features/customer-area/x";\nexport const b = a;\n',
      ),
    ).toContain("no-restricted-imports");
    // Platform and ui under every feature.
    expect(
      await lint(
        "app/ui/probe.ts",
        'import { a } from "~/features/catalogue/x";\nexport const b = a;\n',
      ),
    ).toContain("no-restricted-imports");
    // A dynamic import is an arrow too.
    expect(
      await lint(
        "app/features/catalogue/probe.ts",
        'export const load = () => import("~/features/payments/x");\n',
      ),
    ).toContain("no-restricted-syntax");
    expect(
      await lint(
        "app/platform/probe.ts",
        'export const load = () => import("~/features/billing/x");\n',
      ),
    ).toContain("no-restricted-syntax");
    // Platform reaching a feature by a relative path, or ui at all.
    for (const code of [
      'import { a } from "../features/billing/x";\nexport const b = a;\n',
      'import { a } from "~/ui/button";\nexport const b = a;\n',
      'import { a } from "../../ui/form";\nexport const b = a;\n',
    ])
      expect(await lint("app/platform/http/probe.ts", code), code).toContain(
        "no-restricted-imports",
      );
    // The admin shell reaching a feature's own staff page (decision 075: each owns its page).
    expect(
      await lint(
        "app/features/admin/probe.ts",
        'import { verifactuPage } from "~/features/verifactu/staff-page.server";\nexport const b = verifactuPage;\n',
      ),
    ).toContain("no-restricted-imports");
    // The site's language written out anywhere but platform/locale.ts (decision 079).
    for (const code of [
      'export const f = new Intl.NumberFormat("es-ES");\n',
      'export const og = { content: "es_ES" };\n',
      'export const page = `<html lang="es">`;\n',
    ])
      expect(await lint("app/features/billing/probe.ts", code), code).toContain(
        "no-restricted-syntax",
      );
    expect(
      await lint("app/routes/probe.tsx", 'export const Page = () => <html lang="es" />;\n'),
    ).toContain("no-restricted-syntax");
    // A feature importing a route, statically or not.
    expect(
      await lint(
        "app/features/billing/probe.ts",
        'import { loader } from "~/routes/admin";\nexport const b = loader;\n',
      ),
    ).toContain("no-restricted-imports");
    expect(
      await lint(
        "app/features/billing/probe.ts",
        'export const load = () => import("../../routes/admin");\n',
      ),
    ).toContain("no-restricted-syntax");
    // A route reaching the database through drizzle's subpaths.
    expect(
      await lint(
        "app/routes/probe.ts",
        'import { sql } from "drizzle-orm/sql";\nexport const b = sql;\n',
      ),
    ).toContain("no-restricted-imports");
    // Only the server's start loads a local service (the AEAT stand-in), when configured.
    expect(
      await lint(
        "app/features/verifactu/probe.ts",
        'import { a } from "../../../local-services/aeat-stand-in.server";\nexport const b = a;\n',
      ),
    ).toContain("no-restricted-imports");
    expect(
      await lint(
        "app/routes/probe.ts",
        'export const load = () => import("../../local-services/aeat-stand-in.server");\n',
      ),
    ).toContain("no-restricted-syntax");
    // An arrow the graph has passes, dynamic or not, and platform may import platform.
    expect(
      await lint(
        "app/features/billing/probe.ts",
        'export const load = () => import("~/features/verifactu/x");\n',
      ),
    ).toEqual([]);
    expect(
      await lint(
        "app/ui/probe.ts",
        'import { formatDate } from "~/platform/dates";\nexport const b = formatDate;\n',
      ),
    ).toEqual([]);
    // An arrow the graph has passes.
    expect(
      await lint(
        "app/features/customer-area/probe.ts",
        'import { a } from "~/features/payments/x";\nexport const b = a;\n',
      ),
    ).not.toContain("no-restricted-imports");
  });
});
