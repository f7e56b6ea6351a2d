import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const folder = path.resolve(import.meta.dirname, "../../docs/decisions");

/** Every numbered decision: its number, its Status line and the numbers it says it changes. */
const decisions = readdirSync(folder)
  .filter((name) => /^\d{3}-.*\.md$/.test(name) && !name.startsWith("000-"))
  .map((name) => {
    const text = readFileSync(path.join(folder, name), "utf8");
    const line = (label: string) => new RegExp(`^${label}:(.*)$`, "m").exec(text)?.[1] ?? "";
    const numbers = (value: string) =>
      [...value.replace(/\([^)]*\)/g, "").matchAll(/\b(\d{3})\b/g)].map((m) => m[1]!);
    return {
      number: name.slice(0, 3),
      text,
      status: line("Status"),
      changes: [...numbers(line("Supersedes")), ...numbers(line("Amends"))],
      // The numbers after "amended by" / "superseded by", not those in their parenthesised notes.
      changedBy: numbers(
        line("Status")
          .replace(/\([^)]*\)/g, "")
          .replace(/^[^;]*?(?=amended|superseded)/i, ""),
      ),
    };
  });
const byNumber = new Map(decisions.map((decision) => [decision.number, decision]));

describe("decision records", () => {
  it("each has a date and a status", () => {
    for (const decision of decisions) {
      expect(decision.text, decision.number).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/m);
      expect(decision.status.trim(), decision.number).not.toBe("");
    }
  });

  it("says its status in one short line: what changed it is told by the later decision", () => {
    for (const decision of decisions)
      expect(decision.status.trim(), decision.number).toMatch(
        /^(proposed|accepted|superseded by \d{3}|superseded in part by [\d, ]+)(; (superseded in part by|amended by) [\d, ]+)*$/,
      );
  });

  it("a decision that supersedes or amends another is named in that one's status", () => {
    for (const decision of decisions)
      for (const earlier of decision.changes) {
        const target = byNumber.get(earlier);
        expect(target, `${decision.number} names ${earlier}, which does not exist`).toBeDefined();
        expect(target!.status, `${earlier}'s status should say "by ${decision.number}"`).toMatch(
          new RegExp(`by ${decision.number}\\b|\\b${decision.number}\\b`),
        );
      }
  });

  it("a status that says amended or superseded names decisions that exist and say so", () => {
    for (const decision of decisions)
      for (const later of decision.changedBy) {
        const target = byNumber.get(later);
        expect(
          target,
          `${decision.number} is changed by ${later}, which does not exist`,
        ).toBeDefined();
        expect(target!.text, `${later} should name ${decision.number}`).toContain(decision.number);
      }
  });
});
