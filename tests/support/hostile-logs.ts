import { format } from "node:util";
import { vi } from "vitest";
import { passesLuhn } from "./hostile-input";

/**
 * Every log line the site writes during a test: the site's pino logger (installed with
 * `captureDestination`, see hostile-input.test.ts) and anything written through `console`
 * (Better Auth's logger, stray console calls), as a production process would print them.
 */
export const capturedLines: string[] = [];

/** A pino destination that keeps the lines in memory. */
export const captureDestination = {
  write(chunk: string) {
    for (const line of chunk.split("\n")) if (line) capturedLines.push(line);
  },
};

/** Sends console output to `capturedLines` instead of the terminal; returns the undo. */
export function captureConsole(): () => void {
  const methods = ["log", "info", "warn", "error", "debug", "trace"] as const;
  const spies = methods.map((method) =>
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      for (const line of format(...args).split("\n")) if (line) capturedLines.push(line);
    }),
  );
  return () => spies.forEach((spy) => spy.mockRestore());
}

export type SecretKind = "password" | "session token" | "mailed-link token" | "card number";

type Found = { kind: SecretKind; secret: string; line: string };

/** Runs of letters and digits this long or longer are what a leaked secret looks like. */
const MIN_SECRET = 12;

/**
 * What the test sent or was given that no log line may contain: passwords, session tokens,
 * the tokens of mailed links and card numbers. Lines are searched by their runs of letters and
 * digits (and of digits alone for cards), so each check is a set lookup, not a scan per secret.
 */
export class SecretRegistry {
  private readonly secrets = new Map<string, SecretKind>();
  private readonly lengths = new Set<number>();
  private readonly literals = new Map<string, SecretKind>();

  get size() {
    return this.secrets.size + this.literals.size / 2;
  }

  count(kind: SecretKind): number {
    return (
      [...this.secrets.values()].filter((value) => value === kind).length +
      [...this.literals.values()].filter((value) => value === kind).length / 2
    );
  }

  /** A secret made of letters, digits, '-' and '_' (tokens): each such run of it counts. */
  add(kind: SecretKind, secret: string) {
    for (const run of secret.match(/[A-Za-z0-9]+/g) ?? []) {
      // Short or monotonous runs (fast-check likes "AAAA…") would match innocent text.
      if (run.length < MIN_SECRET || new Set(run).size < 6) continue;
      this.secrets.set(run, kind);
      this.lengths.add(run.length);
    }
  }

  /**
   * A password field's value: its random-looking runs (16 or more letters and digits, with
   * upper and lower case and a digit, as the harness's marked passwords have) are secrets.
   * Words such as 'propertyIsEnumerable', which fast-check also sends, are not.
   */
  addPassword(value: string) {
    for (const run of value.match(/[A-Za-z0-9]{16,}/g) ?? [])
      if (/[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run)) this.add("password", run);
  }

  /** Any field's value: the card numbers it carries (13-19 digits passing Luhn). */
  addCardNumbers(value: string) {
    for (const run of value.replace(/[ -]/g, "").match(/\d{13,19}/g) ?? []) {
      if (passesLuhn(run) && new Set(run).size >= 4) {
        this.secrets.set(run, "card number");
        this.lengths.add(run.length);
      }
    }
  }

  /** A secret looked for as it is (and as JSON writes it): a known password, say. */
  addLiteral(kind: SecretKind, secret: string) {
    this.literals.set(secret, kind);
    this.literals.set(JSON.stringify(secret).slice(1, -1), kind);
  }

  /** The registered secrets found in `lines`. */
  findIn(lines: readonly string[]): Found[] {
    const found: Found[] = [];
    const lengths = [...this.lengths];
    for (const line of lines) {
      for (const [literal, kind] of this.literals)
        if (line.includes(literal)) found.push({ kind, secret: literal, line: line.slice(0, 500) });
      const runs = [
        ...(line.match(/[A-Za-z0-9]+/g) ?? []),
        // Card numbers as typed, with spaces or dashes between the groups.
        ...(line.replace(/(\d)[ -](?=\d)/g, "$1").match(/\d{13,}/g) ?? []),
      ];
      for (const run of runs) {
        if (run.length < MIN_SECRET) continue;
        for (const length of lengths) {
          for (let start = 0; start + length <= run.length; start++) {
            const candidate = run.slice(start, start + length);
            const kind = this.secrets.get(candidate);
            if (kind) found.push({ kind, secret: candidate, line: line.slice(0, 500) });
          }
        }
      }
    }
    return found;
  }
}
